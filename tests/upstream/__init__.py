"""Test files of the libraries gcrylike's drop-in classes copy, vendored
with their licences and the vectors they read (see README.md)."""

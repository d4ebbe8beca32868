"""Native helpers shared by every extension (C sources; not a public API)."""

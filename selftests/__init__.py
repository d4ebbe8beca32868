"""Known-answer vectors and the self-test runner (installed as ``gcrylike.selftests``)."""

from .runner import Report, StreamVector, run_all, stream_selftest

__all__ = ["Report", "StreamVector", "run_all", "stream_selftest"]

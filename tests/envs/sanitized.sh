#!/bin/sh
# Run a command with the AddressSanitizer and UBSan runtimes preloaded (the
# sanitize tox env): the interpreter is not instrumented, so the runtimes an
# instrumented extension links must be loaded first.
cc="${CC:-gcc}"
LD_PRELOAD="$("$cc" -print-file-name=libasan.so) $("$cc" -print-file-name=libubsan.so)"
export LD_PRELOAD
exec "$@"

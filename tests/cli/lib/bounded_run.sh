# Sourced by the CLI tests of hostile files. bounded_run CMD... runs CMD with a 20 s time
# limit and an 8 GB address-space limit, so that a command that blocks on a FIFO fails the
# test (exit 124) instead of hanging it, and one that reads a device without end (/dev/zero)
# fails with an allocation error instead of filling the machine's memory. With
# expect_one_line_error (one_line_error.sh): expect_one_line_error WANT bounded_run CMD...
bounded_run() {
  ( ulimit -v 8388608; exec timeout 20 "$@" )
}

#!/usr/bin/env python3
"""Prints the share of one CPU that a busy process gets on this machine now:
1.00 when it is idle, about 0.25 at a load of 8 on 2 cores (0.05 at least).
Half a second of a busy loop, its CPU time over its wall time. The test
scripts scale the limits that catch hangs by it (scripts/test.sh, and
tests/drm/run-in-vm.sh for the guests), so that a busy machine makes the
tests slower, never failed."""
import time

wall, cpu = time.monotonic(), time.process_time()
while time.monotonic() - wall < 0.5:
    pass
share = (time.process_time() - cpu) / (time.monotonic() - wall)
print('%.2f' % max(0.05, min(1.0, share)))

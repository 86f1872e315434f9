#!/bin/bash
# Runs the drm suite (test_drm) in qemu guests: once on vgem, once on
# virtio-gpu with the KMS tests, then (optional) the writeback suite on vkms.
# Meson's test('drm') calls it.
#   tests/drm/run-in-vm.sh [--build-root DIR] [--devices "vgem virtio-gpu vkms"]
#                          [--kms-demo KMS_THREE_RECTS] [--kiosk KIOSK] [--sg-render SG_RENDER] TEST_DRM
# With --kms-demo, the virtio-gpu guest also runs the demo with --frames 10;
# with --kiosk, the kiosk demo turned a quarter (--rotate 90) for 3 frames, as
# the user nobody through seatd (--session: seatd gives it the card and DRM
# master), started while no display is connected: it must wait for Virtual-1;
# with --sg-render, sg-render --display --info on scenes/three-rects.json, which
# must name the buffers' format and modifier (libdrm's names, tools/display.c).
# vkms is not in Debian's kernel: tests/vm/build-vkms.sh builds it (needs apt
# and network the first time); when it cannot, the vkms guest is skipped with
# "vkms: skipped: <reason>" and that does not fail the suite.
# Exit status: 0 all passed, 1 a test failed, 77 (skip) when no guest can be
# started here (setup.sh failed: no qemu and no network for apt, ...), 99 when
# the harness failed after a guest could be started.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
build_root='' kms_demo='' kiosk='' sg_render='' devices=${SG_DRM_DEVICES:-vgem virtio-gpu vkms}
while [ $# -gt 1 ]; do
    case $1 in
        --build-root) build_root=$(cd "$2" && pwd); shift 2 ;;
        --devices) devices=$2; shift 2 ;;
        --kms-demo) kms_demo=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        --kiosk) kiosk=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        --sg-render) sg_render=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        *) break ;;
    esac
done
[ $# = 1 ] || { echo "usage: $0 [--build-root DIR] [--devices LIST] [--kms-demo PATH] [--kiosk PATH] [--sg-render PATH] TEST_DRM" >&2; exit 99; }
test_drm=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -n "$build_root" ] || build_root=$(dirname "$test_drm")

since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
skip() { echo "run-in-vm.sh: SKIP: $*"; exit 77; }

# setup.sh is idempotent: about half a second when everything is cached.
start=$EPOCHREALTIME
if ! setup_log=$("$ROOT/tests/vm/setup.sh" 2>&1); then
    printf '%s\n' "$setup_log"
    skip "tests/vm/setup.sh failed, so no guest can be started here (see above)"
fi
qemu-system-x86_64 --version >/dev/null 2>&1 || skip "qemu-system-x86_64 does not run here"
echo "setup.sh: $(since "$start") s"

# The guest sees the host's / read-only anyway; the read-write share is the
# project root when the build folder is inside it (the usual build/), else the
# build folder itself.
case $build_root/ in
    "$ROOT"/*) share=$ROOT ;;
    *) share=$build_root ;;
esac

# Limits that a busy machine cannot trip. Each guest is bounded by qemu's CPU
# time, its work, which load stretches in wall time but not in CPU time (the
# most any guest used on an idle machine, 2 cores: see tests/drm/README.md),
# with room to spare. Inside the guest, the clock is the host's wall clock:
# Check's per-test timeouts are scaled by how little of a CPU qemu gets here,
# measured before each boot, with the same room again.
cpu_limit=${SG_VM_CPU_LIMIT:-600}
status=0
for device in $devices; do
    cpu=$(python3 "$ROOT/tests/cpu_share.py")
    multiplier=$(awk -v s="$cpu" 'BEGIN { m = int(2 / s + 0.999); print (m < 2 ? 2 : m) }')
    echo "=== $device: this machine gives a busy process ${cpu} of a CPU: guest limit ${cpu_limit} s of CPU time, Check timeouts x${multiplier} ==="
    # Each test's line as it ends (CK_LOG_FILE_NAME=-): a killed guest shows how far it got.
    envs=(--env CK_VERBOSITY=normal --env CK_LOG_FILE_NAME=- --env CK_TIMEOUT_MULTIPLIER=$multiplier)
    cmd=("$test_drm") outputs='' udev=()
    if [ "$device" = vkms ]; then
        echo "=== build-vkms.sh ==="
        start=$EPOCHREALTIME
        vkms_log=$("$ROOT/tests/vm/build-vkms.sh" 2>&1)
        rc=$?
        printf '%s\n' "$vkms_log"
        if [ "$rc" != 0 ]; then
            reason=$(printf '%s\n' "$vkms_log" | sed -n 's/^build-vkms.sh: error: //p' | tail -n1)
            echo "vkms: skipped: ${reason:-tests/vm/build-vkms.sh exited $rc}"
            continue
        fi
        echo "=== build-vkms.sh: $(since "$start") s ==="
        # vkms has no render node and no virtio: test_drm runs only the writeback
        # and output-vkms suites there.
        envs+=(--env SG_DRM_WRITEBACK=1)
    fi
    if [ "$device" = vgem ]; then
        # The input suite (uinput devices through libinput) wants udevd.
        envs+=(--env SG_DRM_INPUT=1) udev=(--udev)
    fi
    if [ "$device" = virtio-gpu ]; then
        # Two connectors (qemu connects only Virtual-1): the output suite
        # checks that the disconnected Virtual-2 is refused by name.
        envs+=(--env SG_DRM_KMS=1 --env SG_DRM_GPU_OUTPUTS=2) outputs=2
        # One boot for all: the demo's and sg-render's exit statuses join the tests'.
        cmd=(sh -c 'status=0; "$0" || status=$?
            if [ -n "$1" ]; then
                echo "--- kms-three-rects --frames 10 ---"; "$1" --frames 10 || status=1
            fi
            if [ -n "$4" ]; then
                echo "--- kiosk --session --rotate 90 --frames 3, as nobody through seatd, started with no display ---"
                seatd -u nobody -l error & seatd=$!
                for _ in $(seq 240); do [ -S /run/seatd.sock ] && break; sleep 0.5; done
                # Virtual-1 forced off: the kiosk must wait, then take it when it comes
                # (forced on, announced by a change event as a hotplug is).
                echo off > /sys/class/drm/card0-Virtual-1/status
                setpriv --reuid=65534 --regid=65534 --clear-groups env LIBSEAT_BACKEND=seatd \
                    "$4" --session --rotate 90 --slide-seconds 0.1 --frames 3 > /tmp/kiosk.out 2>&1 & kiosk=$!
                # plugged only once it waits (as long as a busy machine makes that take)
                for _ in $(seq 600); do grep -q "waiting for one" /tmp/kiosk.out && break
                    kill -0 "$kiosk" 2>/dev/null || break; sleep 0.5; done
                echo detect > /sys/class/drm/card0-Virtual-1/status
                echo change > /sys/class/drm/card0/uevent
                wait "$kiosk" || status=1
                cat /tmp/kiosk.out
                grep -q "waiting for one" /tmp/kiosk.out || { echo "kiosk: did not wait for a display"; status=1; }
                grep -q "^display Virtual-1" /tmp/kiosk.out || { echo "kiosk: never showed Virtual-1"; status=1; }
                kill "$seatd"
            fi
            if [ -n "$2" ]; then
                echo "--- sg-render --display --info ---"
                out=$("$2" "$3" --display --frames 3 --info --quiet 2>&1); rc=$?
                printf "%s\n" "$out"
                if [ "$rc" != 0 ]; then
                    echo "sg-render --display: exit $rc"; status=1
                elif ! printf "%s\n" "$out" | grep -Eq "^buffers: +[0-9]+ of [A-Z0-9]{4}, modifier [A-Z]"; then
                    echo "sg-render --display --info: no names for the format and modifier"; status=1
                fi
            fi
            exit $status' "$test_drm" "$kms_demo" "$sg_render" "$ROOT/scenes/three-rects.json" "$kiosk")
    fi
    echo "=== test_drm on $device ==="
    start=$EPOCHREALTIME
    (cd "$share" && SG_VM_GPU_OUTPUTS=$outputs "$ROOT/tests/vm/run.sh" --device "$device" --cpu-limit "$cpu_limit" \
        --timeout "$(awk -v c="$cpu_limit" -v s="$cpu" 'BEGIN { printf "%d", 4 * c / s }')" --share "$share" \
        "${udev[@]}" "${envs[@]}" -- "${cmd[@]}") 2>&1
    rc=$?
    echo "=== test_drm on $device: exit $rc, $(since "$start") s (boot + tests + power-off) ==="
    case $rc in
        0) ;;
        125) if [ "$device" = vkms ]; then  # optional: vkms.ko built but unusable here
                 echo "vkms: skipped: the vkms guest could not run test_drm (run.sh exit 125, see above)"
             else
                 [ "$status" = 0 ] && status=99
             fi ;;
        *) status=1 ;;
    esac
done
exit "$status"

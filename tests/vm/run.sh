#!/bin/bash
# Run one command inside a throw-away qemu guest that has a real DRM device.
#   tests/vm/run.sh [--device vgem|virtio-gpu|vkms|none] [--cpu-limit SECONDS]
#                   [--timeout SECONDS] [--share DIR] [--env NAME=VALUE]... [--udev]
#                   [--verbose] -- COMMAND...
# The guest sees the host's / read-only and DIR (default: the current
# directory) read-write at the same path, and runs COMMAND as root in the
# current directory (--udev: with systemd-udevd running, devices triggered and
# settled, as libinput wants). COMMAND's stdout and stderr come out here; the exit
# status is COMMAND's, 124 on timeout, 125 when the harness itself failed.
# --cpu-limit: the guest is killed once qemu has used this much CPU time (the
# guest's work, which a busy host stretches in wall time but not in CPU time);
# --timeout: wall seconds, a backstop for a guest that idles (default: 10 times
# the CPU limit, or 300 without one).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${SG_VM_CACHE:-$HOME/.cache/libsg-vm}
device=vgem timeout= cpu_limit= share=$PWD verbose=0 udev=0 envs=()

die() { echo "run.sh: error: $*" >&2; exit 125; }
usage() { sed -n "2,14s/^# \\{0,1\\}//p" "$0" >&2; exit "${1:-125}"; }

while [ $# -gt 0 ]; do
    case $1 in
        --device) device=${2:?}; shift 2 ;;
        --timeout) timeout=${2:?}; shift 2 ;;
        --cpu-limit) cpu_limit=${2:?}; shift 2 ;;
        --share) share=$(cd "${2:?}" && pwd) || die "no such directory: $2"; shift 2 ;;
        --env) [[ ${2:-} == [A-Za-z_]*=* ]] || die "--env wants NAME=VALUE"; envs+=("$2"); shift 2 ;;
        --udev) udev=1; shift ;;
        --verbose|-v) verbose=1; shift ;;
        --) shift; break ;;
        -h|--help) usage 0 ;;
        -*) die "unknown option $1 (try --help)" ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || usage
case $device in
    vgem) drm=vgem qdev=() ;;
    # SG_VM_GPU_OUTPUTS: qemu's max_outputs (connectors Virtual-1..N; only the first is connected)
    virtio-gpu) drm=virtio-gpu qdev=(-device "virtio-gpu-pci${SG_VM_GPU_OUTPUTS:+,max_outputs=$SG_VM_GPU_OUTPUTS}") ;;
    vkms) drm=vkms qdev=() ;;   # built by tests/vm/build-vkms.sh; no render node
    none) drm='' qdev=() ;;
    *) die "unknown device '$device' (vgem, virtio-gpu, vkms or none)" ;;
esac
[[ -z $cpu_limit || $cpu_limit =~ ^[0-9]+$ ]] || die "--cpu-limit wants whole seconds"
[ -n "$timeout" ] || timeout=$(( cpu_limit ? cpu_limit * 10 : 300 ))
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout wants whole seconds"

# --- what setup.sh made -----------------------------------------------------------
hint="run tests/vm/setup.sh first"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found; $hint"
[ -r "$CACHE/current" ] || die "no kernel in $CACHE; $hint"
kdir=$CACHE/$(cat "$CACHE/current")
for f in vmlinux initramfs.img; do [ -s "$kdir/$f" ] || die "$kdir/$f is missing; $hint"; done
[ "$(sha256sum < "$HERE/init.sh" | cut -d' ' -f1)" = "$(cat "$kdir/initramfs.img.init" 2>/dev/null)" ] ||
	die "init.sh differs from the one in the initramfs; $hint"
if [ "$device" = vkms ] && ! grep -qw vkms "$kdir/initramfs.img.modules" 2>/dev/null; then
    die "the initramfs has no vkms; run tests/vm/build-vkms.sh (it builds vkms.ko and runs setup.sh)"
fi

# --- the private share: config and command in, output and status out -----------
io=$(mktemp -d "${TMPDIR:-/tmp}/sg-vm.XXXXXX")
trap 'rm -rf "$io"' EXIT
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }   # POSIX sh quoting
{ echo "SG_DRM=$(q "$drm")"; echo "SG_SHARE=$(q "$share")"; } > "$io/config"
{
    for e in "${envs[@]}"; do echo "export $(q "$e")"; done
    if [ "$udev" = 1 ]; then
        # The guest's /run is a fresh tmpfs: udevd keeps its database there.
        # udevadm refuses to trigger or settle in a chroot unless told.
        echo "export SYSTEMD_IGNORE_CHROOT=1"
        echo "/lib/systemd/systemd-udevd --daemon 2>/dev/null || { echo 'run.sh: systemd-udevd did not start in the guest (is udev installed?)' >&2; exit 125; }"
        echo "udevadm trigger --action=add && udevadm settle --timeout=20"
    fi
    echo "cd $(q "$PWD") 2>/dev/null || { echo $(q "run.sh: $PWD is not visible in the guest (the guest's /tmp is its own tmpfs; try --share)") >&2; exit 125; }"
    printf 'exec'; for a in "$@"; do printf ' %s' "$(q "$a")"; done; echo
} > "$io/cmd.sh"

# --- accelerator --------------------------------------------------------------------
# A nested /dev/kvm without vmx/svm cannot boot a stock kernel: TCG there.
if [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
    accel=(-accel kvm -cpu host)
else
    accel=(-accel tcg -cpu max)
fi

virtfs() {  # tag path [ro] -- qemu wants commas in paths doubled
    printf 'local,path=%s,mount_tag=%s,security_model=none,multidevs=remap%s' \
        "${2//,/,,}" "$1" "${3:+,readonly=on}"
}
# The serial console goes to a log file, so the kernel and init never mix into
# the command's output; "quiet" still matters: printing to the emulated UART
# is slow under TCG. --verbose keeps the kernel log for debugging.
klog="quiet loglevel=0"; [ "$verbose" = 1 ] && klog="loglevel=6"
# One vCPU: measured faster than two under TCG. In the background, watched
# below; Ctrl-C reaches it all the same (one process group).
qemu-system-x86_64 \
    -nodefaults -no-user-config -display none -monitor none -no-reboot \
    -M q35 -m "${SG_VM_MEM:-2048}" -smp 1 "${accel[@]}" \
    -kernel "$kdir/vmlinux" -initrd "$kdir/initramfs.img" \
    -append "console=ttyS0 $klog panic=-1" \
    -serial "file:$io/console.log" \
    -virtfs "$(virtfs hostroot / ro)" -virtfs "$(virtfs share "$share")" \
    -virtfs "$(virtfs sgvm "$io")" \
    "${qdev[@]}" </dev/null >"$io/qemu.log" 2>&1 &
qemu=$!
trap 'kill -9 "$qemu" 2>/dev/null || true; rm -rf "$io"' EXIT

# The limits are watched from here: qemu's CPU time (user + system, all its
# threads) from /proc, and the wall time.
ticks=$(getconf CLK_TCK)
cpu_used() { awk -v t="$ticks" '{ printf "%d", ($14 + $15) / t }' "/proc/$qemu/stat" 2>/dev/null || echo 0; }
started=$SECONDS killed='' used=0
while kill -0 "$qemu" 2>/dev/null; do
    # The last reading stands once qemu is gone (bash reaps it at once).
    now=$(cpu_used); [ "$now" -ge "$used" ] && used=$now
    if [ -n "$cpu_limit" ] && [ "$used" -ge "$cpu_limit" ]; then
        killed="the guest used its ${cpu_limit} s of CPU time"
    elif [ $((SECONDS - started)) -ge "$timeout" ]; then
        killed="the guest was still running after ${timeout}s"
    fi
    if [ -n "$killed" ]; then
        kill "$qemu" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qemu" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$qemu" 2>/dev/null || true
        break
    fi
    sleep 0.25
done
status=0
wait "$qemu" || status=$?
wall=$((SECONDS - started))

# The command's output, even after a timeout (it may show how far it got).
cat "$io/stdout" 2>/dev/null || true
cat "$io/stderr" >&2 2>/dev/null || true
[ "$verbose" = 1 ] && { echo "--- guest console ---"; cat "$io/console.log" "$io/qemu.log"; } >&2
echo "run.sh: the guest used ${used} s of CPU time in ${wall} s${cpu_limit:+ (limit ${cpu_limit} s)}" >&2

if [ -n "$killed" ]; then
    echo "run.sh: timeout: $killed and was killed" >&2
    exit 124
fi
[ -s "$io/status" ] && exit "$(cat "$io/status")"
{
    echo "run.sh: error: the guest exited (qemu status $status) without reporting the command's status"
    [ -s "$io/error" ] && echo "run.sh: guest said: $(cat "$io/error")"
    [ "$verbose" = 1 ] || { echo "--- last lines of the guest console and qemu log ---"
                            tail -n 20 "$io/console.log" "$io/qemu.log" 2>/dev/null; }
} >&2
exit 125

#!/bin/busybox sh
# PID 1 of the guest (copied into the initramfs by setup.sh as /init).
# run.sh shares a private host folder as 9p tag "sgvm" holding:
#   config   shell assignments: SG_DRM (module to load), SG_SHARE (rw path)
#   cmd.sh   the command, as a POSIX sh script (cd + exec)
# and reads back stdout, stderr and status (the command's exit status).
# Anything this script prints goes to the serial console (a log file on the
# host), never into the command's output.
/bin/busybox --install -s /bin
export PATH=/bin

fail() {
    echo "sg-vm-init: error: $*"
    echo "$*" > /sgvm/error 2>/dev/null
    sync; poweroff -f
}

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

for m in virtio_pci 9pnet_virtio 9p; do modprobe "$m" || fail "modprobe $m failed (re-run tests/vm/setup.sh?)"; done
P9="trans=virtio,version=9p2000.L,msize=262144"
mount -t 9p -o "$P9,cache=none" sgvm /sgvm || fail "cannot mount the sgvm share"
. /sgvm/config || fail "cannot read /sgvm/config"

# Input: evdev makes /dev/input/event*, uinput lets a test make devices.
for m in evdev uinput; do modprobe "$m" || fail "modprobe $m failed (re-run tests/vm/setup.sh?)"; done

if [ -n "$SG_DRM" ]; then
    modprobe "$SG_DRM" || fail "modprobe $SG_DRM failed (re-run tests/vm/setup.sh?)"
    # No udev here: the nodes come up root:root 0600. The command runs as
    # root anyway; 0666 keeps tests that drop privileges working too.
    for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e /dev/dri/card0 ] && break; sleep 0.1; done
    [ -e /dev/dri/card0 ] || fail "$SG_DRM loaded but /dev/dri/card0 did not appear"
    chmod 666 /dev/dri/*
fi

# The host's / read-only (loose caching: nothing changes it during a run),
# then fresh kernel filesystems and tmpfs over the places that must be
# writable or must not show the host's own state.
R=/mnt/root
mount -t 9p -o "$P9,ro,cache=loose" hostroot $R || fail "cannot mount the host root"
mount -t proc proc $R/proc
mount -t sysfs sys $R/sys
mount -t devtmpfs dev $R/dev
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts devpts $R/dev/pts
mount -t tmpfs tmpfs $R/dev/shm
mount -t tmpfs tmpfs $R/tmp
mount -t tmpfs tmpfs $R/run
# The read-write share at its host path. cache=mmap: writes go straight to
# the host, and mmap still works (linkers and test programs use it).
mkdir -p "$R$SG_SHARE" 2>/dev/null
mount -t 9p -o "$P9,cache=mmap" share "$R$SG_SHARE" || fail "cannot mount the share at $SG_SHARE"

# The redirections are opened here, outside the chroot, so the command never
# sees /sgvm. It gets a clean environment; cmd.sh adds --env values.
chroot $R /usr/bin/env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/tmp TMPDIR=/tmp LANG=C.UTF-8 TERM=dumb SG_VM=1 \
    /bin/sh -c "$(cat /sgvm/cmd.sh)" </dev/null >/sgvm/stdout 2>/sgvm/stderr
echo $? > /sgvm/status.tmp
mv /sgvm/status.tmp /sgvm/status

# Flush the shares before the power goes.
sync
umount "$R$SG_SHARE"
umount /sgvm
poweroff -f

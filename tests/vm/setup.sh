#!/bin/bash
# Prepare everything tests/vm/run.sh needs: qemu, busybox-static, a pinned
# Debian kernel (unpacked into a cache, never installed), its ELF vmlinux and
# a busybox initramfs holding tests/vm/init.sh and the few modules we load.
# Idempotent: each step is skipped when its output already exists.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${SG_VM_CACHE:-$HOME/.cache/libsg-vm}
# Pinned so runs are reproducible; linux-image-amd64 moves to new ABIs.
KPKG=${SG_VM_KERNEL_PKG:-linux-image-6.1.0-57-amd64}
# Modules the initramfs must hold (their dependencies are added from modules.dep).
# evdev and uinput: virtual input devices for the input tests (tests/drm/test_input.c).
MODULES="virtio_pci 9pnet_virtio 9p vgem virtio-gpu evdev uinput ${SG_VM_EXTRA_MODULES:-}"

say() { echo "setup.sh: $*" >&2; }
die() { say "error: $*"; exit 1; }

# --- host packages ----------------------------------------------------------
need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx cpio || need+=(busybox-static)
command -v xz >/dev/null || need+=(xz-utils)
command -v zstd >/dev/null || need+=(zstd)
if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "need root to install: ${need[*]}"
    say "installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
BUSYBOX=/bin/busybox
# A dynamic busybox would not run in the initramfs, which has no libc.
LC_ALL=C grep -qa '/lib64/ld-linux' "$BUSYBOX" && die "$BUSYBOX is dynamically linked; install busybox-static"

# --- kernel package -----------------------------------------------------------
# apt-get download needs no root and does not install anything.
if ! apt-cache show "$KPKG" >/dev/null 2>&1; then
    alt=$(apt-cache depends linux-image-amd64 2>/dev/null |
          sed -n 's/.*Depends: \(linux-image-6\.1\.0-[0-9]*-amd64\)$/\1/p' | head -n1)
    [ -n "$alt" ] || alt=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' |
                           awk '{print $1}' | sort -V | tail -n1)
    [ -n "$alt" ] || die "$KPKG is not known to apt and no linux-image-6.1.0-*-amd64 is (apt-get update?)"
    say "WARNING: $KPKG is not available from apt; using $alt instead." \
        "Set SG_VM_KERNEL_PKG=$alt (or update the pin in $0) to silence this."
    KPKG=$alt
fi
KVER=${KPKG#linux-image-}
KDIR=$CACHE/$KVER
mkdir -p "$KDIR"
if [ ! -d "$KDIR/root/lib/modules/$KVER" ]; then
    say "downloading $KPKG"
    rm -rf "$KDIR/root" "$KDIR"/*.deb
    # As root, apt would warn that its _apt user cannot write the cache folder.
    sandbox=(); [ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)
    (cd "$KDIR" && apt-get download -q "${sandbox[@]}" "$KPKG" >/dev/null)
    dpkg -x "$KDIR"/"$KPKG"_*.deb "$KDIR/root.tmp"
    # The package ships no modules.dep (postinst runs depmod); make one.
    "$BUSYBOX" depmod -b "$KDIR/root.tmp" "$KVER"
    mv "$KDIR/root.tmp" "$KDIR/root"
    rm -f "$KDIR"/*.deb
fi
MODDIR=$KDIR/root/lib/modules/$KVER
# vkms is not in Debian's kernel; tests/vm/build-vkms.sh builds it into updates/.
[ -s "$MODDIR/updates/vkms.ko" ] && MODULES="$MODULES vkms"

# --- uncompressed ELF vmlinux ------------------------------------------------
# qemu boots an ELF vmlinux through its PVH entry point, which is about twice
# as fast as the bzImage path. Like scripts/extract-vmlinux: find each
# compression magic in the bzImage, try to decompress from there, keep the
# first result that is an ELF file.
extract_vmlinux() {  # $1 = vmlinuz, $2 = output
    local img=$1 out=$2 magic tool off
    for pair in '\xfd7zXZ\x00:xz -dc' '\x28\xb5\x2f\xfd:zstd -dcq' '\x1f\x8b\x08:gzip -dc' \
                '\x5d\x00\x00\x00:xz -dc --format=lzma' '\x89LZO:lzop -dc' \
                '\x02\x21\x4c\x18:lz4 -dc' 'BZh:bzip2 -dc'; do
        magic=${pair%%:*} tool=${pair#*:}
        command -v "${tool%% *}" >/dev/null || continue
        for off in $(LC_ALL=C grep -obUaP "$magic" "$img" | cut -d: -f1); do
            tail -c "+$((off + 1))" "$img" | $tool > "$out.tmp" 2>/dev/null || true
            if [ "$(head -c4 "$out.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
                mv "$out.tmp" "$out"; say "vmlinux extracted (${tool%% *} stream at byte $off)"; return 0
            fi
        done
    done
    rm -f "$out.tmp"
    return 1
}
if [ ! -s "$KDIR/vmlinux" ]; then
    extract_vmlinux "$KDIR/root/boot/vmlinuz-$KVER" "$KDIR/vmlinux" ||
        die "could not extract an ELF vmlinux from $KDIR/root/boot/vmlinuz-$KVER"
fi

# --- initramfs -----------------------------------------------------------------
# Rebuilt whenever init.sh or this script differs from what it was built from
# (it takes a second): by content, not by time, since checkouts of any age
# share the cache. Also rebuilt when the module list changed
# (SG_VM_EXTRA_MODULES, vkms).
INITRD=$KDIR/initramfs.img
MODULES=$(echo $MODULES)
SOURCES=$(cat "$HERE/init.sh" "$0" | sha256sum | cut -d' ' -f1)
if [ ! -s "$INITRD" ] || [ "$(cat "$INITRD.sources" 2>/dev/null)" != "$SOURCES" ] ||
   [ "$(cat "$INITRD.modules" 2>/dev/null)" != "$MODULES" ] || [ "$MODDIR/updates/vkms.ko" -nt "$INITRD" ]; then
    stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage"/{bin,dev,proc,sys,tmp,sgvm,mnt/root,lib/modules/"$KVER"}
    cp "$BUSYBOX" "$stage/bin/busybox"
    cp "$HERE/init.sh" "$stage/init"; chmod 755 "$stage/init"

    # Resolve module names (- and _ are the same) to modules.dep entries,
    # recursively, skipping the ones built into the kernel.
    norm() { basename "$1" | sed 's/\.ko.*//; s/-/_/g'; }
    declare -A want=()
    resolve() {
        local m=$1 line path dep
        grep -q "/$m\.ko" <(sed 's/-/_/g' "$MODDIR/modules.builtin") && return 0
        line=$(awk -F: -v m="$m" '{ n=$1; sub(/.*\//, "", n); sub(/\.ko.*/, "", n); gsub(/-/, "_", n);
                                    if (n == m) { print; exit } }' "$MODDIR/modules.dep")
        [ -n "$line" ] || die "module $m not found in $MODDIR/modules.dep"
        path=${line%%:*}
        [ -n "${want[$path]:-}" ] && return 0
        want[$path]=1
        for dep in ${line#*:}; do resolve "$(norm "$dep")"; done
    }
    for m in $MODULES; do resolve "$(echo "$m" | tr - _)"; done

    # Copy them uncompressed (busybox modprobe need not understand .ko.xz),
    # then let busybox depmod write a modules.dep for just these.
    for path in "${!want[@]}"; do
        dst=$stage/lib/modules/$KVER/${path%.ko*}.ko
        mkdir -p "$(dirname "$dst")"
        case $path in
            *.xz) xz -dc "$MODDIR/$path" > "$dst" ;;
            *.zst) zstd -dcq "$MODDIR/$path" > "$dst" ;;
            *.gz) gzip -dc "$MODDIR/$path" > "$dst" ;;
            *) cp "$MODDIR/$path" "$dst" ;;
        esac
    done
    cp "$MODDIR/modules.builtin" "$MODDIR/modules.order" "$stage/lib/modules/$KVER/"
    "$BUSYBOX" depmod -b "$stage" "$KVER"

    (cd "$stage" && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null) | gzip -1 > "$INITRD.tmp"
    mv "$INITRD.tmp" "$INITRD"
    echo "$MODULES" > "$INITRD.modules"
    sha256sum < "$HERE/init.sh" | cut -d' ' -f1 > "$INITRD.init"
    echo "$SOURCES" > "$INITRD.sources"
    say "initramfs: ${#want[@]} modules: $(for p in "${!want[@]}"; do norm "$p"; done | sort | tr '\n' ' ')"
fi

# run.sh reads this to find the kernel without asking apt again.
echo "$KVER" > "$CACHE/current"
say "ready: $KDIR (vmlinux, initramfs.img)"

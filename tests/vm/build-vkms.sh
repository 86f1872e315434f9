#!/bin/bash
# Build vkms.ko for the kernel tests/vm/setup.sh pins (Debian does not build
# vkms: CONFIG_DRM_VKMS is unset). Downloads, with apt-get download (no root,
# nothing installed), linux-source-<major>, linux-headers-<abi>-amd64,
# linux-headers-<abi>-common and linux-kbuild-<major> of exactly the kernel
# package's version, unpacks them with dpkg -x into
# ${SG_VM_CACHE:-$HOME/.cache/libsg-vm}/<kver>/vkms/, extracts only
# drivers/gpu/drm/vkms from the source tarball and builds it out of tree.
# The module goes to <kver>/root/lib/modules/<kver>/updates/vkms.ko (with a
# fresh modules.dep), where setup.sh picks it up for the initramfs; this
# script then runs setup.sh so the initramfs holds it.
# Idempotent: a cached run only checks that vkms.ko is there (and setup.sh).
# Exit status 0 when vkms.ko is ready, 1 with "build-vkms.sh: error: ..." else.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${SG_VM_CACHE:-$HOME/.cache/libsg-vm}
T0=$EPOCHREALTIME
say() { echo "build-vkms.sh: $*" >&2; }
die() { say "error: $*"; exit 1; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# The kernel package as setup.sh pins it: KPKG=${SG_VM_KERNEL_PKG:-linux-image-...}.
pin=$(sed -n 's/^KPKG=\${SG_VM_KERNEL_PKG:-\(linux-image-[^}]*\)}.*/\1/p' "$HERE/setup.sh" | head -n1)
[ -n "$pin" ] || die "cannot find the KPKG pin in $HERE/setup.sh"
KPKG=${SG_VM_KERNEL_PKG:-$pin}
# setup.sh may have fallen back to another ABI when the pin left the archive:
# follow the kernel it actually unpacked.
if [ -r "$CACHE/current" ] && [ "linux-image-$(cat "$CACHE/current")" != "$KPKG" ]; then
    say "setup.sh uses linux-image-$(cat "$CACHE/current") (pin: $KPKG); building for that"
    KPKG=linux-image-$(cat "$CACHE/current")
fi
KVER=${KPKG#linux-image-}       # 6.1.0-57-amd64
ABI=${KVER%-*}                  # 6.1.0-57
MAJOR=$(echo "$KVER" | cut -d. -f1,2)   # 6.1
KDIR=$CACHE/$KVER
MODDIR=$KDIR/root/lib/modules/$KVER
OUT=$MODDIR/updates/vkms.ko
W=$KDIR/vkms

if [ -s "$OUT" ] && [ -s "$W/built-for" ] && [ "$(cat "$W/built-for")" = "$KPKG" ]; then
    say "cached: $OUT"
else
    [ -d "$MODDIR" ] || { say "the kernel is not unpacked yet; running setup.sh"; "$HERE/setup.sh" ||
                          die "tests/vm/setup.sh failed"; }
    [ -d "$MODDIR" ] || die "$MODDIR is missing after setup.sh"
    command -v make >/dev/null || die "make is not installed"
    command -v gcc >/dev/null || die "gcc is not installed (the kernel was built with gcc-12)"
    command -v xz >/dev/null || die "xz is not installed"

    # The exact version of the image package; the others must match it.
    VERSION=$(apt-cache show --no-all-versions "$KPKG" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
    [ -n "$VERSION" ] || die "apt does not know $KPKG (apt-get update?), so its version is unknown"
    # The kernel's banner names its package version: "... Debian 6.1.192-3 ...".
    if [ -s "$KDIR/vmlinux" ] && ! LC_ALL=C grep -aqF "Debian $VERSION " "$KDIR/vmlinux"; then
        die "the cached kernel $KDIR/vmlinux is not $KPKG $VERSION (apt's); re-run setup.sh"
    fi
    PKGS=(linux-source-$MAJOR linux-headers-$KVER linux-headers-$ABI-common linux-kbuild-$MAJOR)
    say "building vkms for $KPKG $VERSION"

    # --- download -------------------------------------------------------------
    t=$EPOCHREALTIME
    mkdir -p "$W/debs"
    sandbox=(); [ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)
    for p in "${PKGS[@]}"; do
        ls "$W/debs/${p}_${VERSION}"_*.deb >/dev/null 2>&1 && continue
        (cd "$W/debs" && apt-get download -q "${sandbox[@]}" "$p=$VERSION" >/dev/null 2>"$W/apt.log") ||
            die "apt-get download $p=$VERSION failed: $(tail -n1 "$W/apt.log")"
    done
    say "download: $(since "$t") s ($(du -sh "$W/debs" | cut -f1))"

    # --- unpack -----------------------------------------------------------------
    t=$EPOCHREALTIME
    rm -rf "$W/root" "$W/src"
    mkdir -p "$W/root" "$W/src"
    for p in linux-headers-$KVER linux-headers-$ABI-common linux-kbuild-$MAJOR; do
        dpkg -x "$W/debs/${p}_${VERSION}"_*.deb "$W/root"
    done
    # Only the tarball out of linux-source, then only vkms out of the tarball.
    dpkg-deb --fsys-tarfile "$W/debs/linux-source-${MAJOR}_${VERSION}"_*.deb |
        tar -x -C "$W/src" --wildcards '*/linux-source-*.tar.xz' ||
        die "no linux-source tarball in linux-source-$MAJOR"
    tarball=$(find "$W/src" -name 'linux-source-*.tar.xz' | head -n1)
    tar -xJf "$tarball" -C "$W/src" --strip-components=1 --wildcards '*/drivers/gpu/drm/vkms/*' ||
        die "cannot extract drivers/gpu/drm/vkms from $tarball"
    rm -f "$tarball"
    [ -s "$W/src/drivers/gpu/drm/vkms/Makefile" ] || die "drivers/gpu/drm/vkms/Makefile missing in $tarball"
    HDR=$W/root/usr/src/linux-headers-$KVER
    [ -d "$HDR" ] || die "$HDR missing after unpacking linux-headers-$KVER"
    # The arch headers' Makefile and symlinks name /usr/src and /usr/lib
    # absolutely; point them into the unpacked tree.
    grep -rlF '/usr/src/linux-headers-' "$HDR/Makefile" 2>/dev/null |
        xargs -r sed -i "s#/usr/src/linux-headers-#$W/root/usr/src/linux-headers-#g"
    find "$W/root" -type l | while read -r l; do
        target=$(readlink "$l")
        case $target in /usr/*) ln -sfn "$W/root$target" "$l" ;; esac
    done
    say "unpack: $(since "$t") s"

    # --- build ------------------------------------------------------------------
    t=$EPOCHREALTIME
    if ! make -C "$HDR" M="$W/src/drivers/gpu/drm/vkms" CONFIG_DRM_VKMS=m \
            -j"$(nproc)" modules >"$W/build.log" 2>&1; then
        tail -n 20 "$W/build.log" >&2
        die "make failed (full log: $W/build.log)"
    fi
    ko=$W/src/drivers/gpu/drm/vkms/vkms.ko
    [ -s "$ko" ] || die "make succeeded but left no vkms.ko (log: $W/build.log)"
    vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null || strings "$ko" | sed -n 's/^vermagic=//p')
    case $vermagic in "$KVER "*) ;; *) die "vkms.ko has vermagic '$vermagic', not $KVER" ;; esac
    say "build: $(since "$t") s"

    t=$EPOCHREALTIME
    mkdir -p "$(dirname "$OUT")"
    cp "$ko" "$OUT.tmp" && mv "$OUT.tmp" "$OUT"
    # setup.sh resolves modules through this tree's modules.dep.
    /bin/busybox depmod -b "$KDIR/root" "$KVER" || die "depmod failed"
    grep -q 'updates/vkms.ko:' "$MODDIR/modules.dep" || die "vkms is not in modules.dep after depmod"
    echo "$KPKG" > "$W/built-for"
    # The downloads are ~150 MB and the unpacked headers are only needed to build.
    rm -rf "$W/debs" "$W/root" "$W/src"
    say "install (depmod, clean-up): $(since "$t") s; vkms.ko: $OUT"
fi

# setup.sh adds vkms to the initramfs when updates/vkms.ko exists and
# rebuilds it when the module list changed.
t=$EPOCHREALTIME
"$HERE/setup.sh" >/dev/null 2>"$W/setup.log" || { cat "$W/setup.log" >&2; die "tests/vm/setup.sh failed"; }
grep -q ' vkms' <(gzip -dc "$KDIR/initramfs.img" | /bin/busybox cpio -t 2>/dev/null | sed 's#.*/# #') ||
    die "the initramfs has no vkms.ko after setup.sh"
say "setup.sh (initramfs): $(since "$t") s"
say "ready ($(since "$T0") s in all)"

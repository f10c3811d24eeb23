#!/usr/bin/env bash
# Make turnlog_<version>_<arch>.deb from a bundle built by build-bundle.sh.
#
#   packaging/build-deb.sh BUNDLE_DIR ICONS_DIR OUT
#
# BUNDLE_DIR is the PyInstaller folder (it holds the `turnlog` executable); ICONS_DIR holds
# <size>x<size>/apps/io.github.turnlog.Turnlog.png. The package installs the bundle to
# /opt/turnlog, links /usr/bin/turnlog and /usr/bin/turnlog-cli to it (relative links, so
# the tree also works unpacked under another root with `dpkg -x`), and installs the
# desktop entry, the AppStream metainfo and the icons where desktops look for them.
set -euo pipefail

bundle=$1 icons=$2 out=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
app_id=io.github.turnlog.Turnlog

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/pyproject.toml" | head -n1)
arch=$(dpkg --print-architecture)
tree=$out/deb
rm -rf "$tree"
install -d "$tree/DEBIAN" "$tree/opt" "$tree/usr/bin" "$tree/usr/share/applications" \
    "$tree/usr/share/metainfo" "$tree/usr/share/icons/hicolor/scalable/apps" \
    "$tree/usr/share/doc/turnlog"
cp -a "$bundle" "$tree/opt/turnlog"
ln -s ../../opt/turnlog/turnlog "$tree/usr/bin/turnlog"
ln -s ../../opt/turnlog/turnlog-cli "$tree/usr/bin/turnlog-cli"
install -m 644 "$here/$app_id.desktop" "$tree/usr/share/applications/"
install -m 644 "$here/$app_id.metainfo.xml" "$tree/usr/share/metainfo/"
install -m 644 "$root/desktop/turnlog/resources/$app_id.svg" \
    "$tree/usr/share/icons/hicolor/scalable/apps/"
for png in "$icons"/*x*/apps/"$app_id.png"; do
    size=$(basename "$(dirname "$(dirname "$png")")")
    install -D -m 644 "$png" "$tree/usr/share/icons/hicolor/$size/apps/$app_id.png"
done
install -m 644 "$root/LICENSE" "$tree/usr/share/doc/turnlog/copyright"
# What a package may hold: directories and programs 755, everything else 644.
find "$tree" -type d -exec chmod 755 {} +
find "$tree" -type f ! -perm -u+x -exec chmod 644 {} +
find "$tree" -type f -perm -u+x -exec chmod 755 {} +

# The system libraries the bundle leaves to the system (PyInstaller never bundles the C
# library or the graphics stack): OpenGL/EGL, DRM, the X connection and, for Qt's Wayland
# plugin, Wayland's client libraries; fontconfig for its configuration and fonts.
# tests/packaging/test_bundle.py checks this list against what the bundled libraries link to.
depends="libc6, libegl1, libgl1, libglx0, libglvnd0, libdrm2, libxcb1, libwayland-client0, \
libwayland-cursor0, libwayland-egl1, libfontconfig1"
installed_kib=$(du -sk --exclude=DEBIAN "$tree" | cut -f1)
cat >"$tree/DEBIAN/control" <<EOF
Package: turnlog
Version: $version
Architecture: $arch
Maintainer: The Turnlog authors <turnlog@users.noreply.github.com>
Installed-Size: $installed_kib
Depends: $depends
Recommends: fonts-noto-cjk, fonts-noto-color-emoji, gnome-keyring, xdg-utils
Section: net
Priority: optional
Homepage: https://github.com/turnlog/turnlog
Description: chat client that keeps every turn and shows what each request carried
 Turnlog is a desktop chat client for OpenAI-compatible chat endpoints. Every
 confirmed question and answer stays in a local log; each request carries only
 the newest whole turns that fit the request's byte limit and the model's token
 budget, and the window shows, turn by turn, what was sent.
 .
 A small built-in model (SmolLM2-135M-Instruct, Apache-2.0) answers offline.
EOF
deb=$out/turnlog_${version}_${arch}.deb
nice -n 10 dpkg-deb --root-owner-group -Zzstd --build "$tree" "$deb" >/dev/null
echo "build-deb: $deb"

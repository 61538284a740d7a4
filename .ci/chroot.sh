# Sourced by .ci/debian13 and .ci/debian12-backports: `make test` (or the command given) on a
# fresh clone inside a Debian chroot kept between runs, as CI runs it (CI=true, ../shared beside).
# Needs root and network to Debian's mirror and PyPI.
#   chroot_enter SUITE ROOT   debootstrap ROOT once, copy this machine's network settings, mount
#                             /proc, /sys, /dev (unmounted when the calling script exits)
#   chroot_sh ROOT SCRIPT     run a bash SCRIPT inside (DEBIAN_FRONTEND=noninteractive)
#   chroot_test ROOT [CMD...] clone this checkout into ROOT/work/main (../shared beside it) and
#                             run CMD there (default: make test)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mounted=()

chroot_enter() {
  local suite=$1 root=$2
  [[ $(id -u) -eq 0 ]] || { echo "run as root (debootstrap, mount and chroot need it)" >&2; exit 1; }
  if ! command -v debootstrap >/dev/null; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  fi
  if [[ ! -x $root/usr/bin/apt-get ]]; then
    debootstrap --variant=minbase "$suite" "$root" http://deb.debian.org/debian
  fi

  # This machine's network settings: DNS, and the CA certificates and pip settings of its proxy.
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  if [[ -d /usr/local/share/ca-certificates ]]; then
    cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
  fi
  if [[ -f /etc/pip.conf ]]; then cp /etc/pip.conf "$root/etc/pip.conf"; fi

  trap _chroot_leave EXIT
  _mount -t proc proc "$root/proc"
  _mount -t sysfs sys "$root/sys"
  _mount --bind /dev "$root/dev"
  _mount --bind /dev/pts "$root/dev/pts"
  _mount -t tmpfs tmpfs "$root/dev/shm" # Chromium's shared memory
}

_mount() { mount "$@"; mounted+=("${*: -1}"); }

_chroot_leave() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" || true; done
}

chroot_sh() {
  local root=$1 script=$2
  chroot "$root" bash -c "export DEBIAN_FRONTEND=noninteractive; $script"
}

chroot_test() {
  local root=$1
  shift
  rm -rf "$root/work"
  mkdir -p "$root/work"
  git clone -q "$here" "$root/work/main"
  # -L: a ../shared that is a link (as in a worktree) is copied as the folder it points to
  if [[ -d $here/../shared ]]; then cp -rL "$here/../shared" "$root/work/shared"; fi
  echo "Debian $(cat "$root/etc/debian_version") chroot at $root: ${*:-make test}"
  # exported: CI=true must reach every command of a compound one (`make setup && pytest …`)
  chroot "$root" bash -c "export CI=true; cd /work/main && ${*:-make test}"
}

#!/bin/sh
# Install the Debian packages tracecomb needs when they are missing.
# As root: apt-get install them.  Otherwise: print the exact command to run.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
		echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
else
	echo "deps: missing Debian packages; run as root:" >&2
	echo "  apt-get install -y$missing" >&2
	exit 1
fi

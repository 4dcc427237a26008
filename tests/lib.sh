# lib.sh — helpers for script tests: each case prints "ok NAME" or "not ok NAME".
# Sourced by tests/cli/*.sh and tests/ui/*.sh as . "$(dirname "$0")/../lib.sh".  Env: BIN, TRACES, BUILD.
BIN=${BIN:-./tracecomb}
TRACES=${TRACES:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/traces}
BUILD=${BUILD:-build}
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

ok() { echo "ok $1"; }
notok() { echo "not ok $1${2:+: $2}"; }
check() { # check NAME CONDITION-COMMAND... (one command: `check N [ a ] && [ b ]` checks only [ a ])
	_check_name=$1; shift   # not `name`: the callers' loops use it
	if "$@"; then ok "$_check_name"; else notok "$_check_name"; fi
}
verdict() { # COMPOUND-CONDITION; verdict NAME: ok when the command before it succeeded
	if [ $? -eq 0 ]; then ok "$1"; else notok "$1"; fi
}
# json_num FILE KEY: first numeric value of "KEY": N in a pretty-printed JSON file
json_num() { sed -n "s/^ *\"$2\": \(-\{0,1\}[0-9][0-9.e+-]*\),\{0,1\}$/\1/p" "$1" | head -n 1; }

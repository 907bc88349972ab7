# Checks of the interop scripts' variables, sourced by interop/peer-check.sh and interop/interop.sh; each stops
# with one line naming the variable, its value and what is allowed (through the caller's die).

# num NAME VALUE MIN MAX: VALUE must be a whole number in MIN..MAX, else one line naming NAME and the range.
num() {
  case "$2" in ''|*[!0-9]*) die "$1=$2: not a whole number (allowed $3..$4)" ;; esac
  if [ "${#2}" -gt 9 ] || [ "$((10#$2))" -lt "$3" ] || [ "$((10#$2))" -gt "$4" ]; then
    die "$1=$2: out of range (allowed $3..$4)"
  fi
}

# check_sizes VALUE: INTEROP_SIZES must be a comma-separated list of sizes, 1..16777216 bytes each; sets nsizes.
check_sizes() {
  case "$1" in
    ''|,*|*,|*,,*) die "INTEROP_SIZES=$1: not a comma-separated list of sizes (allowed 1..16777216 bytes each)" ;;
  esac
  local s; nsizes=0
  for s in ${1//,/ }; do
    case "$s" in ''|*[!0-9]*) die "INTEROP_SIZES=$1: $s is not a whole number (allowed 1..16777216 bytes)" ;; esac
    if [ "${#s}" -gt 9 ] || [ "$((10#$s))" -lt 1 ] || [ "$((10#$s))" -gt 16777216 ]; then
      die "INTEROP_SIZES=$1: $s is out of range (allowed 1..16777216 bytes)"
    fi
    nsizes=$((nsizes + 1))
  done
}

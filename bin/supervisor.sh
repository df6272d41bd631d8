# `passepartout run`'s first process: the one a terminal or a service manager knows, and the only one that stays for
# the life of the service. It supervises and nothing else, so it is a POSIX shell, not a Node (a Node that only waits
# holds 44 MB, Node's binary counted again; this shell 1 to 2). bin/passepartout's shell line runs it for a `run`:
#
#   sh bin/supervisor.sh PROGRAM run [OPTIONS]
#
# What a start needs (the command line read, the core tangled, its bundle built) is done by a process that prepares
# the start and exits, `PROGRAM run` itself, told so by PASSEPARTOUT_PREPARE_CORE: the folder this shell made for
# the run. There it writes what to start (a file `start` that sets restart, ended_open, ended_close and command, the
# core's command line quoted for the shell), or says why not itself and exits with its status; the core writes there the TCP port it listens
# on (`port`), which the next start is given: `--tcp=0` means a free port once, not a new one at each restart. Each
# start is prepared again: the core tangled anew, on new code. The core knows this shell is there by `alive`, a named
# pipe the shell holds open: it stops when the pipe says the shell has gone (SIGKILL included).
#
# A SIGINT or SIGTERM this shell gets goes to the core, which stops once it has saved its memory; one that comes
# while no core runs ends the loop with status 0 (once a start being prepared is: its tangle finishes). A core that
# dies of the very signal passed on to it (it was still starting) stopped as asked; one that ended otherwise (killed,
# or an unusual status) is said to have, on stderr: the terminal must not just return to its prompt. A hang-up is
# not passed on: a terminal that goes away must not stop the core (it is a service then).
#
# Written for any POSIX sh (dash, and macOS's /bin/sh): no bash-isms.

# From the first line: a stop asked while the shell starts is a stop.
asked=
signalled=
core=

# Note SIGNAL as asked, and send it to the core if one runs.
pass_on() {
  asked=${asked:-$1}
  signalled=1
  [ -z "$core" ] || kill "-$1" "$core" 2>/dev/null
}

trap 'pass_on INT' INT
trap 'pass_on TERM' TERM
trap 'signalled=1' HUP

program=$1
shift

# The passepartout a project installed for itself, nearest the working folder, when it is another installation than
# this one, answers, supervisor and all (bin/launch.mjs's projectInstallation walks the same way, for the other
# commands): run here, its start prepared by this installation, it would have to speak this installation's protocol.
hand_over_to_project_installation() {
  here=$(readlink -f "$(dirname "$0")/..")
  walked=$(pwd -P)
  while :; do
    local_program=$walked/node_modules/.bin/passepartout
    if [ -e "$local_program" ]; then
      found=$(readlink -f "$local_program")
      [ "$(dirname "$(dirname "$found")")" = "$here" ] || exec "$local_program" "$@"
      return 0
    fi
    [ -n "$walked" ] || return 0
    walked=${walked%/*}
  done
}
hand_over_to_project_installation "$@"

# In /tmp when TMPDIR names a folder that is gone (a terminal multiplexer's session that ended): a folder of the user's
# own is a preference, not a need.
folder=$(mktemp -d "${TMPDIR:-/tmp}/passepartout-run.XXXXXX" 2>/dev/null || mktemp -d /tmp/passepartout-run.XXXXXX) ||
  exit 1
trap 'rm -rf "$folder"' EXIT
mkfifo "$folder/alive" || exit 1
# Held open for reading and writing, so that opening it never waits: the core's reading end ends when this shell does.
exec 4<>"$folder/alive"
# The terminal, kept for the core: a shell without job control gives a command it runs in the background /dev/null
# as its input (dash does so even when the command redirects 0<&0), so the core's input is this copy of ours.
exec 3<&0

# Wait for the child PID to end, through the signals that interrupt `wait`; its exit status in $status.
wait_for() {
  status=
  while :; do
    signalled=
    # Not the shell's own word on a child a signal killed ("Killed"): this script says how the core ended.
    wait "$1" 2>/dev/null
    waited=$?
    # Waited again after the child ended and was waited for: no such child (127); its status is the one before.
    [ -n "$status" ] && [ "$waited" -eq 127 ] || status=$waited
    [ -n "$signalled" ] || return 0
  done
}

# The exit status a SIGINT or SIGTERM gives a process it ends.
killed_by_asked() {
  case $asked in INT) echo 130 ;; TERM) echo 143 ;; *) echo none ;; esac
}

while :; do
  [ -z "$asked" ] || exit 0
  rm -f "$folder/start"
  # Started in the background, as the core is: `wait` returns at a signal, a foreground command would not.
  PASSEPARTOUT_PREPARE_CORE=$folder "$program" "$@" 3<&- 4>&- &
  wait_for $!
  [ -z "$asked" ] || exit 0
  [ -f "$folder/start" ] || exit "$status"
  . "$folder/start"
  eval "$command 0<&3 3<&- 4>&- &"
  core=$!
  wait_for "$core"
  core=
  [ "$status" != "$(killed_by_asked)" ] || exit 0
  if [ "$status" -eq "$restart" ]; then
    [ -z "$asked" ] || exit 0
    echo 'passepartout: starting the core again on its new code'
    continue
  fi
  # Status 1 is a core that said why itself (another core holds the project, a mandatory skill is not ready).
  case $status in
    0 | 1) ;;
    12[89] | 1[3-9][0-9] | 2[0-5][0-9]) echo "passepartout: ${ended_open}the core was killed by SIG$(kill -l "$status")$ended_close" >&2 ;;
    *) echo "passepartout: ${ended_open}the core ended with status $status$ended_close" >&2 ;;
  esac
  exit "$status"
done

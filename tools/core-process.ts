/**
 * What the command line and the core process it starts agree on: the exit
 * status by which `passepartout run` asks to be started again, on new code
 * (one of the core's own documents changed, and checks). 75 is EX_TEMPFAIL:
 * "try again".
 */
export const RESTART_EXIT_CODE = 75

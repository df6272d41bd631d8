export const eol = 'still crlf'
export const kept = 1

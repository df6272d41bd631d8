export const side = 'org'
export const other = 0

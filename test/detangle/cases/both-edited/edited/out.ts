export const side = 'neither'
export const other = 1

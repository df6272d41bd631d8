export const stray = 1

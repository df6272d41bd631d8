export const first = 10
export const second = 20

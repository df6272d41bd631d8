export const first = 10
export const second = 20
export const third = 30

export const a = 10
export const a2 = 11

export const b = 20
export const c = 3
export const d = 40

export const total = Math.max(1, 3)

export const café = 'crème brûlée'
export const wave = '👋🏽'
export const naïve = true

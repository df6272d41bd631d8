export const answer = 43

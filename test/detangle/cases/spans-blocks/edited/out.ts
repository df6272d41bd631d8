export const both = [
  1,
  2,
]

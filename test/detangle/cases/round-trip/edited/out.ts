  export const alone = 1

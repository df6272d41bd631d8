// Copyright the authors.
// SPDX-License-Identifier: MIT
export const piece = 1;

// The on/off state of the rows an operator switches (meals, activities, meal regions, coupons): 1 on (on sale,
// enabled), 2 off (withdrawn, disabled). TypeScript compares with these names and the SQL in src/server/db
// interpolates them (`state = ${ON_OFF.on}`); each screen words them its own way (在售/已下架, 启用/已停用).
export const ON_OFF = { on: 1, off: 2 } as const;
export type OnOff = (typeof ON_OFF)[keyof typeof ON_OFF];

/** The state a switch leaves behind: off for on, on for off (also what the row held before a switch to `state`). */
export const otherOnOff = (state: number): OnOff => (state === ON_OFF.on ? ON_OFF.off : ON_OFF.on);

/** With TEST_TODAY set (tests and the e2e server only, never production), Date starts at that moment and
 * ticks on (README, "Testing on another day"). Not libfaketime: workerd hangs under it. */
export function shiftClock(today: string | undefined): void {
  if (!today) return;
  // "2027-03-01T07:30:00Z@1796000000000": the runners add the real start, so every process shifts alike.
  const [day = "", anchor] = today.split("@");
  const target = Date.parse(day);
  if (Number.isNaN(target)) throw new Error(`TEST_TODAY is not a date: ${day}`);
  const Real = Date as DateConstructor & { shiftedTo?: string };
  if (Real.shiftedTo === today) return;
  // Without an anchor, taken at the first reading: workerd's clock outside a request reads 0.
  let offset: number | undefined = anchor ? target - Number(anchor) : undefined;
  const now = () => {
    const real = Real.now();
    offset ??= target - real;
    return real + offset;
  };
  // A function, not a class, so that `Date()` (now as a string) still works.
  const Shifted = function (this: unknown, ...args: unknown[]) {
    if (!new.target) return new Real(now()).toString();
    return args.length === 0
      ? new Real(now())
      : new Real(...(args as ConstructorParameters<DateConstructor>));
  } as unknown as DateConstructor & { shiftedTo?: string };
  Object.setPrototypeOf(Shifted, Real);
  Object.defineProperty(Shifted, "prototype", { value: Real.prototype });
  Shifted.now = now;
  Shifted.parse = Real.parse;
  Shifted.UTC = Real.UTC;
  Shifted.shiftedTo = today;
  globalThis.Date = Shifted;
}

export function anchoredToday(today: string | undefined): string | undefined {
  if (!today || today.includes("@")) return today || undefined;
  return `${today}@${Date.now()}`;
}

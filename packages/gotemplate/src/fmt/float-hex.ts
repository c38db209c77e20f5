// strconv's %x / %X for float64: -0x1.yyyyp±dd, rounded to nearest even at the requested precision.

const U64 = (1n << 64n) - 1n;

/** mant includes the implicit bit; exp is the unbiased binary exponent of the leading bit. */
export function fmtX(prec: number, fmt: 'x' | 'X', neg: boolean, mant: bigint, exp: number): string {
  if (mant === 0n) exp = 0;
  mant = (mant << 8n) & U64;
  while (mant !== 0n && (mant & (1n << 60n)) === 0n) {
    mant = (mant << 1n) & U64;
    exp--;
  }
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & ((1n << 60n) - 1n);
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant = (mant << (60n - shift)) & U64;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const hex = fmt === 'X' ? '0123456789ABCDEF' : '0123456789abcdef';
  let out = `${neg ? '-' : ''}0${fmt}${(mant >> 60n) & 1n}`;
  mant = (mant << 4n) & U64;
  if ((prec < 0 && mant !== 0n) || prec > 0) {
    out += '.';
    for (let i = 0; prec < 0 ? mant !== 0n : i < prec; i++) {
      out += hex[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & U64;
    }
  }
  out += fmt === 'X' ? 'P' : 'p';
  out += exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  return out + (exp < 10 ? `0${exp}` : `${exp}`);
}

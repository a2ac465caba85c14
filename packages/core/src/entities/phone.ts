import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { entityError, parsed, type TypedParse } from "./types.js";

/** Characters people put between digits of a phone number. */
const PHONE_CHARS = /^\+[\d\s().-]{4,30}$/;

export const looksLikePhone = (s: string): boolean => PHONE_CHARS.test(s) && countDigits(s) >= 7;

function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) n++;
  }
  return n;
}

/**
 * E.164 through libphonenumber's full metadata (needed for the number type).
 * A number that has a plausible length but is not valid for its country still parses,
 * with `valid: false`, because "this number cannot exist" is a finding, not a typo to hide.
 */
export function parsePhone(raw: string): TypedParse {
  const s = raw.toLowerCase().startsWith("tel:") ? raw.slice(4) : raw;
  if (!s.startsWith("+")) {
    return entityError("entity.invalid", "A phone number needs the international form: a leading + and the country code, like +44 20 7946 0958.", "phone");
  }
  if (!PHONE_CHARS.test(s)) return entityError("entity.invalid", "A phone number may contain only digits, spaces, dots, dashes and parentheses after the +.", "phone");
  const digits = countDigits(s);
  if (digits < 7 || digits > 15) return entityError("entity.invalid", `An international phone number has 7 to 15 digits; this has ${digits}.`, "phone");
  let number;
  try {
    number = parsePhoneNumberFromString(s);
  } catch {
    number = undefined;
  }
  if (!number || !number.isPossible()) {
    return entityError("entity.invalid", "This is not a possible phone number for any country code.", "phone");
  }
  const valid = number.isValid();
  // An invalid number keeps its digits exactly as written: libphonenumber would strip what it
  // takes for a trunk prefix ("0") again on every re-parse, so the id would not be stable.
  const value = valid ? number.number : `+${s.replace(/\D/g, "")}`;
  return parsed(value, {
    country: number.country ?? null,
    country_calling_code: number.countryCallingCode,
    national_number: number.nationalNumber,
    number_type: valid ? (number.getType()?.toLowerCase() ?? null) : null,
    valid,
  });
}

/** The calling code of a country (ISO 3166 alpha-2) in libphonenumber's metadata: "GB" and "GG" → "44". */
export function countryCallingCodeOf(country: string): string | null {
  const c = country.toUpperCase();
  return isSupportedCountry(c) ? getCountryCallingCode(c) : null;
}

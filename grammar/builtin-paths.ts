// grammar/: the builtin function and constant paths SurrealDB's parser knows, per version. A path outside them is a parse
// error ("Invalid function/constant path"), as in SurrealDB, not a run-time one. The lists were read from the oracle
// (2.6.0 and 1.5.4: `RETURN name()` for every name of our registry, SurrealDB 2.x's path table and more): a name
// here that the engine does not implement answers that at run time. test/grammar/builtin-paths.test.ts keeps the
// engine's registry inside these lists.

const words = (text: string): string[] => text.trim().split(/\s+/);

/** Functions of both versions. */
const BOTH = words(`
  array::add array::all array::any array::append array::at array::boolean_and array::boolean_not array::boolean_or
  array::boolean_xor array::clump array::combine array::complement array::concat array::difference array::distinct
  array::filter_index array::find_index array::first array::flatten array::group array::insert array::intersect
  array::join array::last array::len array::logical_and array::logical_or array::logical_xor array::matches
  array::max array::min array::pop array::prepend array::push array::remove array::reverse array::slice
  array::sort array::sort::asc array::sort::desc array::transpose array::union
  bytes::len
  count
  crypto::argon2::compare crypto::argon2::generate crypto::bcrypt::compare crypto::bcrypt::generate crypto::md5
  crypto::pbkdf2::compare crypto::pbkdf2::generate crypto::scrypt::compare crypto::scrypt::generate crypto::sha1
  crypto::sha256 crypto::sha512
  duration::days duration::from::days duration::from::hours duration::from::micros duration::from::millis
  duration::from::mins duration::from::nanos duration::from::secs duration::from::weeks duration::hours
  duration::micros duration::millis duration::mins duration::nanos duration::secs duration::weeks duration::years
  encoding::base64::decode encoding::base64::encode
  geo::area geo::bearing geo::centroid geo::distance geo::hash::decode geo::hash::encode
  http::delete http::get http::head http::patch http::post http::put
  math::abs math::bottom math::ceil math::fixed math::floor math::interquartile math::max math::mean math::median
  math::midhinge math::min math::mode math::nearestrank math::percentile math::pow math::product math::round
  math::spread math::sqrt math::stddev math::sum math::top math::trimean math::variance
  meta::id meta::tb
  not
  object::entries object::from_entries object::keys object::len object::values
  parse::email::host parse::email::user parse::url::domain parse::url::fragment parse::url::host parse::url::path
  parse::url::port parse::url::query parse::url::scheme
  rand rand::bool rand::enum rand::float rand::guid rand::int rand::string rand::time rand::ulid rand::uuid
  rand::uuid::v4 rand::uuid::v7
  search::analyze search::highlight search::offsets search::score
  session::db session::id session::ip session::ns session::origin session::token
  sleep
  string::concat string::contains string::distance::hamming string::distance::levenshtein string::is::alpha
  string::is::alphanum string::is::ascii string::is::datetime string::is::domain string::is::email
  string::is::hexadecimal string::is::latitude string::is::longitude string::is::numeric string::is::semver
  string::is::url string::is::uuid string::join string::len string::lowercase string::matches string::repeat
  string::replace string::reverse string::semver::compare string::semver::inc::major string::semver::inc::minor
  string::semver::inc::patch string::semver::major string::semver::minor string::semver::patch
  string::semver::set::major string::semver::set::minor string::semver::set::patch string::similarity::fuzzy
  string::similarity::jaro string::similarity::smithwaterman string::slice string::slug string::split string::trim
  string::uppercase string::words
  time::ceil time::day time::floor time::format time::from::micros time::from::millis time::from::nanos
  time::from::secs time::from::unix time::group time::hour time::max time::micros time::millis time::min
  time::minute time::month time::nano time::now time::round time::second time::timezone time::unix time::wday
  time::week time::yday time::year
  type::bool type::datetime type::decimal type::duration type::field type::fields type::float type::int
  type::is::array type::is::bool type::is::bytes type::is::collection type::is::datetime type::is::decimal
  type::is::duration type::is::float type::is::geometry type::is::int type::is::line type::is::multiline
  type::is::multipoint type::is::multipolygon type::is::none type::is::null type::is::number type::is::object
  type::is::point type::is::polygon type::is::record type::is::string type::is::uuid type::number type::point
  type::string type::table type::thing
  vector::add vector::angle vector::cross vector::distance::chebyshev vector::distance::euclidean
  vector::distance::hamming vector::distance::mahalanobis vector::distance::manhattan vector::distance::minkowski
  vector::divide vector::dot vector::magnitude vector::multiply vector::normalize vector::project
  vector::similarity::cosine vector::similarity::jaccard vector::similarity::pearson vector::similarity::spearman
  vector::subtract
`);

/** Functions 1.5.4 has and 2.6.0 dropped. */
const ONLY_V1 = words(`
  session::sc session::sd
  string::endsWith string::startsWith
`);

/** Functions 2.6.0 added. */
const ONLY_V2 = words(`
  array::fill array::filter array::find array::fold array::includes array::is_empty array::map array::range
  array::reduce array::repeat array::shuffle array::sort_lexical array::sort_natural array::sort_natural_lexical
  array::swap array::windows
  crypto::blake3
  geo::is::valid
  math::acos math::acot math::asin math::atan math::clamp math::cos math::cot math::deg2rad math::lerp
  math::lerpangle math::ln math::log math::log10 math::log2 math::rad2deg math::sign math::sin math::tan
  object::is_empty object::matches
  rand::duration
  record::exists record::id record::refs record::table record::tb
  session::ac session::rd
  string::distance::damerau_levenshtein string::distance::normalized_damerau_levenshtein
  string::distance::normalized_levenshtein string::distance::osa_distance string::ends_with string::html::encode
  string::html::sanitize string::is::ip string::is::ipv4 string::is::ipv6 string::is::record string::is::ulid
  string::similarity::jaro_winkler string::similarity::sorensen_dice string::starts_with
  time::from::ulid time::from::uuid time::is::leap_year
  type::array type::bytes type::geometry type::is::range type::range type::record type::uuid
  value::diff value::patch
  vector::distance::knn vector::scale
`);

/** Constants as SurrealDB spells them (its error suggests these spellings). */
const MATH = words(`
  math::E math::FRAC_1_PI math::FRAC_1_SQRT_2 math::FRAC_2_PI math::FRAC_2_SQRT_PI math::FRAC_PI_2 math::FRAC_PI_3
  math::FRAC_PI_4 math::FRAC_PI_6 math::FRAC_PI_8 math::INF math::LN_10 math::LN_2 math::LOG10_2 math::LOG10_E
  math::LOG2_10 math::LOG2_E math::PI math::SQRT_2 math::TAU
`);
const CONSTANTS_V2 = [...MATH, "math::NEG_INF", "time::EPOCH", "time::MINIMUM", "time::MAXIMUM", "duration::MAX"];

/** Lower-cased path → SurrealDB's spelling (paths match case-insensitively). */
const byLower = (names: string[]): ReadonlyMap<string, string> => new Map(names.map((n) => [n.toLowerCase(), n]));
const KNOWN = { 1: byLower([...BOTH, ...ONLY_V1, ...MATH]), 2: byLower([...BOTH, ...ONLY_V2, ...CONSTANTS_V2]) } as const;

/** Every path `compat` knows, in SurrealDB's spelling (for tests). */
export function builtinPaths(compat: 1 | 2): string[] {
  return [...KNOWN[compat].values()];
}

/** Edits from `a` to `b` (ASCII case ignored), or `cutOff + 1` once it must exceed `cutOff`. */
function distance(a: string, b: string, cutOff: number): number {
  if (Math.abs(a.length - b.length) > cutOff) return cutOff + 1;
  const x = a.toLowerCase(), y = b.toLowerCase();
  let prev = Array.from({ length: x.length + 1 }, (_, i) => i);
  for (let j = 1; j <= y.length; j++) {
    const row = [j];
    let lowest = j;
    for (let i = 1; i <= x.length; i++) {
      const d = Math.min(prev[i]! + 1, row[i - 1]! + 1, prev[i - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      row.push(d);
      lowest = Math.min(lowest, d);
    }
    if (lowest > cutOff) return cutOff + 1;
    prev = row;
  }
  return prev[x.length]!;
}

/** SurrealDB suggests the nearest path only when fewer than this many edits away. */
const SUGGEST_BELOW = 4;

/**
 * undefined when `path` is a builtin function or constant of `compat`; otherwise SurrealDB's parse error text, with 2.x's
 * suggestion of the nearest known path (ties go to the first in our lists; SurrealDB's hash order may pick another).
 */
export function unknownPathMessage(path: string, compat: 1 | 2): string | undefined {
  if (KNOWN[compat].has(path.toLowerCase())) return undefined;
  let best: string | undefined;
  let cutOff = SUGGEST_BELOW;
  if (compat === 2) {
    for (const known of KNOWN[2].values()) {
      const d = distance(path, known, cutOff);
      if (d < cutOff) [best, cutOff] = [known, d];
    }
  }
  return best === undefined ? "Invalid function/constant path" : `Invalid function/constant path, did you maybe mean \`${best}\``;
}

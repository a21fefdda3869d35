//! The timestamps session files carry, read into seconds since the epoch without a calendar
//! crate: RFC 3339 (`2025-10-29T00:59:38.317Z`, `...+02:00`) and aider's local
//! `2025-10-29 00:59:38`.

/// Seconds since the epoch of an RFC 3339 timestamp (fractions of a second dropped), or
/// `None` when it is not one.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, rest) = text.split_at_checked(10)?;
    let rest = rest.strip_prefix(['T', 't', ' '])?;
    let (clock, zone) = rest.split_at_checked(8)?;
    let local = seconds(date, clock)?;
    // Fractions of a second, then the zone.
    let zone = match zone.strip_prefix('.') {
        Some(fraction) => fraction.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => zone,
    };
    let offset = match zone {
        "Z" | "z" => 0,
        _ => {
            let sign = match zone.get(..1)? {
                "+" => 1,
                "-" => -1,
                _ => return None,
            };
            let (hours, minutes) = zone.get(1..)?.split_once(':')?;
            sign * (number(hours, 0, 23)? * 3600 + number(minutes, 0, 59)? * 60)
        }
    };
    Some(local - offset)
}

/// Seconds since the epoch of a local `YYYY-MM-DD HH:MM:SS` at `offset` seconds east of UTC.
pub fn parse_local(text: &str, offset: i64) -> Option<i64> {
    let (date, clock) = text.trim().split_once(' ')?;
    if clock.len() != 8 {
        return None;
    }
    Some(seconds(date, clock)? - offset)
}

/// Seconds since the epoch of `YYYY-MM-DD` and `HH:MM:SS`, read as UTC.
fn seconds(date: &str, clock: &str) -> Option<i64> {
    let mut d = date.splitn(3, '-');
    let year = number(d.next()?, 1, 9999)?;
    let month = number(d.next()?, 1, 12)?;
    let day = number(d.next()?, 1, 31)?;
    let mut c = clock.splitn(3, ':');
    let hour = number(c.next()?, 0, 23)?;
    let minute = number(c.next()?, 0, 59)?;
    // A leap second reads as the second before.
    let second = number(c.next()?, 0, 60)?.min(59);
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second)
}

/// A number of digits only, within `min..=max`.
fn number(text: &str, min: i64, max: i64) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|n| (min..=max).contains(n))
}

/// Days since 1970-01-01 of a date in the proleptic Gregorian calendar (Howard Hinnant's
/// algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_timestamps_of_every_agent_are_read() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2023-11-14T22:13:20Z"), Some(1_700_000_000));
        assert_eq!(
            parse_rfc3339("2023-11-14T22:13:20.317Z"),
            Some(1_700_000_000)
        );
        assert_eq!(
            parse_rfc3339("2023-11-15T00:13:20.123456+02:00"),
            Some(1_700_000_000)
        );
        assert_eq!(
            parse_rfc3339("2023-11-14T21:13:20-01:00"),
            Some(1_700_000_000)
        );
        assert_eq!(parse_rfc3339("2024-02-29T00:00:00Z"), Some(1_709_164_800));
        for bad in [
            "",
            "2023-11-14",
            "2023-13-01T00:00:00Z",
            "2023-11-14T22:13:20",
            "x",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn local_times_are_read_at_their_offset() {
        assert_eq!(parse_local("2023-11-14 22:13:20", 0), Some(1_700_000_000));
        assert_eq!(
            parse_local("2023-11-15 00:13:20", 7200),
            Some(1_700_000_000)
        );
        assert_eq!(parse_local("2023-11-14T22:13:20", 0), None);
    }
}

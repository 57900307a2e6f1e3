//! Counts in messages: `1 sentence`, `2,077 sentences`, as every eudify command writes them.

/// `n` with a comma between groups of three digits: `2,077`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `n` and `noun`, which takes an `s` unless `n` is 1 (regular plurals only): `1 sentence`,
/// `0 errors`, `2,077 sentences`.
pub fn count(n: u64, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", thousands(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        let cases = [
            (0, "0"),
            (7, "7"),
            (999, "999"),
            (1000, "1,000"),
            (2077, "2,077"),
            (123456, "123,456"),
            (1234567, "1,234,567"),
        ];
        for (n, text) in cases {
            assert_eq!(thousands(n), text);
        }
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "sentence"), "1 sentence");
        assert_eq!(count(0, "sentence"), "0 sentences");
        assert_eq!(count(2077, "invalid one"), "2,077 invalid ones");
    }
}

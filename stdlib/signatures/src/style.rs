//! `color` and `font` literals (§8.14): what the checker resolves at
//! compile time, and the compact form a resolved font travels in.
//!
//! Both types come only from string literals, resolved where they are
//! written; nothing here runs while a program runs except
//! [`FontSpec::decode`], which the standard library applies to the
//! canonical text the checker put in the program.
//!
//! - A **color literal** ([`parse_color`]) is one of the 148 named colors
//!   of CSS Color Module Level 4 ([`CSS_COLORS`], case-insensitive),
//!   `#rgb`, `#rrggbb`, `none` or `transparent`. It resolves to a packed
//!   `0xRRGGBB` integer, or to "no color" (`null`) for `none` and
//!   `transparent`.
//! - A **font literal** ([`parse_font`]) is the CSS shorthand with its
//!   words in any order and any of them left out: `italic` or `oblique`
//!   (the slant), `bold` or `bolder` (the weight), `normal` (upright and
//!   regular: both back to normal), a size as a bare whole number or
//!   `<n>px`, and a family made of every other word, in order (`'bold
//!   14px DejaVu Sans'` has the family `DejaVu Sans`; quotes around it
//!   are dropped). A part left out means "unchanged" when the font is
//!   applied. The empty literal, a size of zero, two sizes, and a word
//!   that starts like a size but is not one (`12pt`, `28px/1.2`) are
//!   errors.
//!
//! Decisions beyond the specification's wording: `normal` is accepted as
//! CSS accepts it (the reference would take it as a family name); a
//! family may have several words; sizes are whole pixels.

/// The 148 named colors of CSS Color Module Level 4, lowercase, with
/// their packed `0xRRGGBB` values, in alphabetical order.
pub const CSS_COLORS: &[(&str, u32)] = &[
    ("aliceblue", 0xf0f8ff),
    ("antiquewhite", 0xfaebd7),
    ("aqua", 0x00ffff),
    ("aquamarine", 0x7fffd4),
    ("azure", 0xf0ffff),
    ("beige", 0xf5f5dc),
    ("bisque", 0xffe4c4),
    ("black", 0x000000),
    ("blanchedalmond", 0xffebcd),
    ("blue", 0x0000ff),
    ("blueviolet", 0x8a2be2),
    ("brown", 0xa52a2a),
    ("burlywood", 0xdeb887),
    ("cadetblue", 0x5f9ea0),
    ("chartreuse", 0x7fff00),
    ("chocolate", 0xd2691e),
    ("coral", 0xff7f50),
    ("cornflowerblue", 0x6495ed),
    ("cornsilk", 0xfff8dc),
    ("crimson", 0xdc143c),
    ("cyan", 0x00ffff),
    ("darkblue", 0x00008b),
    ("darkcyan", 0x008b8b),
    ("darkgoldenrod", 0xb8860b),
    ("darkgray", 0xa9a9a9),
    ("darkgreen", 0x006400),
    ("darkgrey", 0xa9a9a9),
    ("darkkhaki", 0xbdb76b),
    ("darkmagenta", 0x8b008b),
    ("darkolivegreen", 0x556b2f),
    ("darkorange", 0xff8c00),
    ("darkorchid", 0x9932cc),
    ("darkred", 0x8b0000),
    ("darksalmon", 0xe9967a),
    ("darkseagreen", 0x8fbc8f),
    ("darkslateblue", 0x483d8b),
    ("darkslategray", 0x2f4f4f),
    ("darkslategrey", 0x2f4f4f),
    ("darkturquoise", 0x00ced1),
    ("darkviolet", 0x9400d3),
    ("deeppink", 0xff1493),
    ("deepskyblue", 0x00bfff),
    ("dimgray", 0x696969),
    ("dimgrey", 0x696969),
    ("dodgerblue", 0x1e90ff),
    ("firebrick", 0xb22222),
    ("floralwhite", 0xfffaf0),
    ("forestgreen", 0x228b22),
    ("fuchsia", 0xff00ff),
    ("gainsboro", 0xdcdcdc),
    ("ghostwhite", 0xf8f8ff),
    ("gold", 0xffd700),
    ("goldenrod", 0xdaa520),
    ("gray", 0x808080),
    ("green", 0x008000),
    ("greenyellow", 0xadff2f),
    ("grey", 0x808080),
    ("honeydew", 0xf0fff0),
    ("hotpink", 0xff69b4),
    ("indianred", 0xcd5c5c),
    ("indigo", 0x4b0082),
    ("ivory", 0xfffff0),
    ("khaki", 0xf0e68c),
    ("lavender", 0xe6e6fa),
    ("lavenderblush", 0xfff0f5),
    ("lawngreen", 0x7cfc00),
    ("lemonchiffon", 0xfffacd),
    ("lightblue", 0xadd8e6),
    ("lightcoral", 0xf08080),
    ("lightcyan", 0xe0ffff),
    ("lightgoldenrodyellow", 0xfafad2),
    ("lightgray", 0xd3d3d3),
    ("lightgreen", 0x90ee90),
    ("lightgrey", 0xd3d3d3),
    ("lightpink", 0xffb6c1),
    ("lightsalmon", 0xffa07a),
    ("lightseagreen", 0x20b2aa),
    ("lightskyblue", 0x87cefa),
    ("lightslategray", 0x778899),
    ("lightslategrey", 0x778899),
    ("lightsteelblue", 0xb0c4de),
    ("lightyellow", 0xffffe0),
    ("lime", 0x00ff00),
    ("limegreen", 0x32cd32),
    ("linen", 0xfaf0e6),
    ("magenta", 0xff00ff),
    ("maroon", 0x800000),
    ("mediumaquamarine", 0x66cdaa),
    ("mediumblue", 0x0000cd),
    ("mediumorchid", 0xba55d3),
    ("mediumpurple", 0x9370db),
    ("mediumseagreen", 0x3cb371),
    ("mediumslateblue", 0x7b68ee),
    ("mediumspringgreen", 0x00fa9a),
    ("mediumturquoise", 0x48d1cc),
    ("mediumvioletred", 0xc71585),
    ("midnightblue", 0x191970),
    ("mintcream", 0xf5fffa),
    ("mistyrose", 0xffe4e1),
    ("moccasin", 0xffe4b5),
    ("navajowhite", 0xffdead),
    ("navy", 0x000080),
    ("oldlace", 0xfdf5e6),
    ("olive", 0x808000),
    ("olivedrab", 0x6b8e23),
    ("orange", 0xffa500),
    ("orangered", 0xff4500),
    ("orchid", 0xda70d6),
    ("palegoldenrod", 0xeee8aa),
    ("palegreen", 0x98fb98),
    ("paleturquoise", 0xafeeee),
    ("palevioletred", 0xdb7093),
    ("papayawhip", 0xffefd5),
    ("peachpuff", 0xffdab9),
    ("peru", 0xcd853f),
    ("pink", 0xffc0cb),
    ("plum", 0xdda0dd),
    ("powderblue", 0xb0e0e6),
    ("purple", 0x800080),
    ("rebeccapurple", 0x663399),
    ("red", 0xff0000),
    ("rosybrown", 0xbc8f8f),
    ("royalblue", 0x4169e1),
    ("saddlebrown", 0x8b4513),
    ("salmon", 0xfa8072),
    ("sandybrown", 0xf4a460),
    ("seagreen", 0x2e8b57),
    ("seashell", 0xfff5ee),
    ("sienna", 0xa0522d),
    ("silver", 0xc0c0c0),
    ("skyblue", 0x87ceeb),
    ("slateblue", 0x6a5acd),
    ("slategray", 0x708090),
    ("slategrey", 0x708090),
    ("snow", 0xfffafa),
    ("springgreen", 0x00ff7f),
    ("steelblue", 0x4682b4),
    ("tan", 0xd2b48c),
    ("teal", 0x008080),
    ("thistle", 0xd8bfd8),
    ("tomato", 0xff6347),
    ("turquoise", 0x40e0d0),
    ("violet", 0xee82ee),
    ("wheat", 0xf5deb3),
    ("white", 0xffffff),
    ("whitesmoke", 0xf5f5f5),
    ("yellow", 0xffff00),
    ("yellowgreen", 0x9acd32),
];

/// Resolve a color literal (§8.14): `Ok(Some(0xRRGGBB))`, `Ok(None)` for
/// `none`/`transparent` ("no color", the same value as `null`), or
/// `Err(message)` for a literal that names no color (the message is the
/// compile error's text).
pub fn parse_color(literal: &str) -> Result<Option<u32>, String> {
    let lower = literal.trim().to_ascii_lowercase();
    if lower == "none" || lower == "transparent" {
        return Ok(None);
    }
    if let Some(hex) = lower.strip_prefix('#') {
        let digits: Option<Vec<u32>> = hex.chars().map(|c| c.to_digit(16)).collect();
        return match digits.as_deref() {
            Some([r, g, b]) => Ok(Some(((r * 17) << 16) | ((g * 17) << 8) | (b * 17))),
            Some(d) if d.len() == 6 => Ok(Some(d.iter().fold(0, |acc, x| acc << 4 | x))),
            _ => Err(format!(
                "'{literal}' is not a color: a hexadecimal color is #rgb or #rrggbb (§8.14)"
            )),
        };
    }
    match CSS_COLORS.binary_search_by(|(name, _)| name.cmp(&lower.as_str())) {
        Ok(i) => Ok(Some(CSS_COLORS[i].1)),
        Err(_) => Err(format!(
            "unknown color '{literal}': a color is one of the 148 CSS color names, #rgb, #rrggbb, none or transparent (§8.14)"
        )),
    }
}

/// The slant of a font.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slant {
    /// Upright.
    Normal,
    /// `italic` or `oblique`.
    Italic,
}

/// The weight of a font.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    /// Regular.
    Normal,
    /// `bold`.
    Bold,
}

/// A resolved font (§8.14): every part optional, `None` meaning
/// "unchanged" when the font is applied with `changeFont`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FontSpec {
    /// Size in pixels (at least 1).
    pub size: Option<u32>,
    /// Slant.
    pub slant: Option<Slant>,
    /// Weight.
    pub weight: Option<Weight>,
    /// Family name as fontconfig knows it (`sans-serif`, `DejaVu Sans`).
    pub family: Option<String>,
}

/// The largest font size a literal may give, in pixels.
pub const MAX_FONT_SIZE: u32 = 10_000;

/// Resolve a font literal (§8.14; the grammar is in the module
/// documentation), or `Err(message)` with the compile error's text.
pub fn parse_font(literal: &str) -> Result<FontSpec, String> {
    let mut spec = FontSpec::default();
    let mut family: Vec<&str> = Vec::new();
    for word in literal.split_whitespace() {
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "italic" | "oblique" => spec.slant = Some(Slant::Italic),
            "bold" | "bolder" => spec.weight = Some(Weight::Bold),
            "normal" => {
                spec.slant.get_or_insert(Slant::Normal);
                spec.weight.get_or_insert(Weight::Normal);
            }
            _ if lower.starts_with(|c: char| c.is_ascii_digit()) => {
                let digits = lower.strip_suffix("px").unwrap_or(&lower);
                let size = digits
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_FONT_SIZE).contains(n))
                    .ok_or_else(|| {
                        format!("'{word}' in font '{literal}' is not a size: write a whole number of pixels from 1 to {MAX_FONT_SIZE}, such as 14 or 14px (§8.14)")
                    })?;
                if spec.size.replace(size).is_some() {
                    return Err(format!("font '{literal}' gives two sizes (§8.14)"));
                }
            }
            _ => family.push(word),
        }
    }
    let family = family.join(" ");
    let family = family.trim_matches(|c| c == '"' || c == '\'').trim();
    if !family.is_empty() {
        spec.family = Some(family.to_string());
    }
    if spec == FontSpec::default() {
        return Err(format!(
            "font '{literal}' says nothing about a font: give a size, a style or a family, such as 'bold 14px sans-serif' (§8.14)"
        ));
    }
    Ok(spec)
}

impl FontSpec {
    /// The canonical text of the font, which the checker puts in the
    /// program and [`FontSpec::decode`] reads back: `size|slant|weight|family`
    /// with `0` for no size, `-` for an unchanged slant or weight, `n`
    /// normal, `i` italic, `b` bold, and an empty family for none.
    pub fn encode(&self) -> String {
        let slant = match self.slant {
            None => '-',
            Some(Slant::Normal) => 'n',
            Some(Slant::Italic) => 'i',
        };
        let weight = match self.weight {
            None => '-',
            Some(Weight::Normal) => 'n',
            Some(Weight::Bold) => 'b',
        };
        format!(
            "{}|{slant}|{weight}|{}",
            self.size.unwrap_or(0),
            self.family.as_deref().unwrap_or("")
        )
    }

    /// The font [`FontSpec::encode`] wrote; `None` for any other text.
    pub fn decode(text: &str) -> Option<FontSpec> {
        let mut parts = text.splitn(4, '|');
        let size: u32 = parts.next()?.parse().ok()?;
        let slant = match parts.next()? {
            "-" => None,
            "n" => Some(Slant::Normal),
            "i" => Some(Slant::Italic),
            _ => return None,
        };
        let weight = match parts.next()? {
            "-" => None,
            "n" => Some(Weight::Normal),
            "b" => Some(Weight::Bold),
            _ => return None,
        };
        let family = parts.next()?;
        Some(FontSpec {
            size: (size > 0).then_some(size),
            slant,
            weight,
            family: (!family.is_empty()).then(|| family.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_css_table_has_148_sorted_unique_names() {
        assert_eq!(CSS_COLORS.len(), 148);
        for pair in CSS_COLORS.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} before {}", pair[0].0, pair[1].0);
        }
        for (name, value) in CSS_COLORS {
            assert!(name.chars().all(|c| c.is_ascii_lowercase()));
            assert!(*value <= 0xffffff);
        }
    }

    #[test]
    fn colors() {
        assert_eq!(parse_color("red"), Ok(Some(0xff0000)));
        assert_eq!(parse_color("RED"), Ok(Some(0xff0000)));
        assert_eq!(parse_color("RebeccaPurple"), Ok(Some(0x663399)));
        assert_eq!(parse_color("yellowgreen"), Ok(Some(0x9acd32)));
        assert_eq!(parse_color("lightgoldenrodyellow"), Ok(Some(0xfafad2)));
        assert_eq!(parse_color("#00f"), Ok(Some(0x0000ff)));
        assert_eq!(parse_color("#aBc"), Ok(Some(0xaabbcc)));
        assert_eq!(parse_color("#00FF7F"), Ok(Some(0x00ff7f)));
        assert_eq!(parse_color("#4a90d9"), Ok(Some(0x4a90d9)));
        assert_eq!(parse_color("none"), Ok(None));
        assert_eq!(parse_color("Transparent"), Ok(None));
        for bad in [
            "nosuchcolour",
            "",
            "#",
            "#12345",
            "#xyz",
            "#1234567",
            "red ",
            "#ff00ff00",
        ] {
            if bad == "red " {
                // surrounding blanks are forgiven
                assert_eq!(parse_color(bad), Ok(Some(0xff0000)));
                continue;
            }
            assert!(parse_color(bad).is_err(), "{bad:?}");
        }
        assert!(parse_color("nosuchcolour")
            .unwrap_err()
            .contains("nosuchcolour"));
    }

    #[test]
    fn fonts_in_any_order() {
        let want = FontSpec {
            size: Some(14),
            slant: None,
            weight: Some(Weight::Bold),
            family: Some("arial".into()),
        };
        for text in [
            "arial 14px bold",
            "bold 14px arial",
            "14px arial bold",
            "bold arial 14",
        ] {
            assert_eq!(parse_font(text).as_ref(), Ok(&want), "{text}");
        }
        assert_eq!(
            parse_font("12px"),
            Ok(FontSpec {
                size: Some(12),
                ..FontSpec::default()
            })
        );
        assert_eq!(
            parse_font("italic bold 9px").unwrap(),
            FontSpec {
                size: Some(9),
                slant: Some(Slant::Italic),
                weight: Some(Weight::Bold),
                family: None
            }
        );
        assert_eq!(
            parse_font("bold 28px DejaVu Sans")
                .unwrap()
                .family
                .as_deref(),
            Some("DejaVu Sans")
        );
        assert_eq!(
            parse_font("oblique \"Liberation Serif\"")
                .unwrap()
                .family
                .as_deref(),
            Some("Liberation Serif")
        );
        let normal = parse_font("normal").unwrap();
        assert_eq!(
            (normal.slant, normal.weight),
            (Some(Slant::Normal), Some(Weight::Normal))
        );
        let italic = parse_font("normal italic").unwrap();
        assert_eq!(italic.slant, Some(Slant::Italic));
        assert_eq!(italic.weight, Some(Weight::Normal));
    }

    #[test]
    fn bad_fonts() {
        assert!(parse_font("").unwrap_err().contains("says nothing"));
        assert!(parse_font("   ").is_err());
        assert!(parse_font("12pt serif").unwrap_err().contains("not a size"));
        assert!(parse_font("0px").is_err());
        assert!(parse_font("28px/1.2 serif").is_err());
        assert!(parse_font("12px 14px").unwrap_err().contains("two sizes"));
        assert!(parse_font("99999999999px").is_err());
    }

    #[test]
    fn encoding_round_trips() {
        for text in [
            "bold 14px arial",
            "12px",
            "italic",
            "normal 3 DejaVu Sans Mono",
            "monospace",
        ] {
            let spec = parse_font(text).unwrap();
            assert_eq!(FontSpec::decode(&spec.encode()), Some(spec), "{text}");
        }
        assert_eq!(FontSpec::decode("x|-|-|"), None);
        assert_eq!(FontSpec::decode("1|q|-|"), None);
        assert_eq!(FontSpec::decode("1|-|-"), None);
        assert_eq!(
            FontSpec::decode("5|-|-|a|b").unwrap().family.as_deref(),
            Some("a|b")
        );
    }
}

//! The drawing style (§17.5) and `font` values (§8.14).
//!
//! [`Style`] is the global state every later draw uses, on the canvas and
//! on images alike: fill (a flat colour, a gradient or none), border
//! colour (or none), line width, alpha and font. It is plain data, cloned
//! by `saveState()`. [`Ink`] is what one call paints with: the style with
//! that call's trailing colour arguments applied.
//!
//! A `font` value is a [`FontObj`] handle built from the canonical text
//! the checker resolved at compile time (`festina_signatures::style`);
//! applying it with `changeFont` changes only the parts it names.

use cairo::{Context, FontSlant, FontWeight, LinearGradient, RadialGradient};
use festina_signatures::style::{FontSpec, Slant, Weight};
use festina_vm::value::{Handle, SentHandle, Value};
use std::rc::Rc;

/// How interiors are filled.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    /// `none`: interiors are left untouched.
    None,
    /// One colour, packed `0xRRGGBB`.
    Flat(u32),
    /// A two-stop gradient (§17.5), until the next `fillStyle`.
    Gradient(Rc<Gradient>),
}

/// A two-stop gradient; a stop of `None` (`none`) is transparent.
#[derive(Clone, Debug, PartialEq)]
pub enum Gradient {
    /// From (`x1`, `y1`) in the first colour to (`x2`, `y2`) in the second.
    Linear {
        /// Start point and colour.
        from: (f64, f64, Option<u32>),
        /// End point and colour.
        to: (f64, f64, Option<u32>),
    },
    /// From the centre (`cx`, `cy`) in `inner` to radius `r` in `outer`.
    Radial {
        /// Centre.
        centre: (f64, f64),
        /// Radius (at least 0).
        radius: f64,
        /// Colour at the centre.
        inner: Option<u32>,
        /// Colour at the radius and beyond.
        outer: Option<u32>,
    },
}

impl Gradient {
    /// Make it the source of `ctx`, with every stop at `alpha`.
    pub fn apply(&self, ctx: &Context, alpha: f64) {
        let stop = |c: Option<u32>| match c {
            Some(rgb) => {
                let (r, g, b) = channels(rgb);
                (r, g, b, alpha)
            }
            None => (0.0, 0.0, 0.0, 0.0),
        };
        match self {
            Gradient::Linear { from, to } => {
                let p = LinearGradient::new(from.0, from.1, to.0, to.1);
                let (r, g, b, a) = stop(from.2);
                p.add_color_stop_rgba(0.0, r, g, b, a);
                let (r, g, b, a) = stop(to.2);
                p.add_color_stop_rgba(1.0, r, g, b, a);
                let _ = ctx.set_source(&p);
            }
            Gradient::Radial {
                centre,
                radius,
                inner,
                outer,
            } => {
                let p = RadialGradient::new(centre.0, centre.1, 0.0, centre.0, centre.1, *radius);
                let (r, g, b, a) = stop(*inner);
                p.add_color_stop_rgba(0.0, r, g, b, a);
                let (r, g, b, a) = stop(*outer);
                p.add_color_stop_rgba(1.0, r, g, b, a);
                let _ = ctx.set_source(&p);
            }
        }
    }
}

/// The current font (§17.5: 16px sans-serif by default).
#[derive(Clone, Debug, PartialEq)]
pub struct Font {
    /// Size in pixels.
    pub size: f64,
    /// Slant.
    pub slant: FontSlant,
    /// Weight.
    pub weight: FontWeight,
    /// Family, as fontconfig knows it.
    pub family: Rc<str>,
}

impl Default for Font {
    fn default() -> Font {
        Font {
            size: 16.0,
            slant: FontSlant::Normal,
            weight: FontWeight::Normal,
            family: Rc::from("sans-serif"),
        }
    }
}

impl Font {
    /// Apply the parts `spec` names (`changeFont(f)`).
    pub fn apply(&mut self, spec: &FontSpec) {
        if let Some(px) = spec.size {
            self.size = px as f64;
        }
        match spec.slant {
            Some(Slant::Italic) => self.slant = FontSlant::Italic,
            Some(Slant::Normal) => self.slant = FontSlant::Normal,
            None => {}
        }
        match spec.weight {
            Some(Weight::Bold) => self.weight = FontWeight::Bold,
            Some(Weight::Normal) => self.weight = FontWeight::Normal,
            None => {}
        }
        if let Some(f) = &spec.family {
            self.family = Rc::from(f.as_str());
        }
    }

    /// `changeFont(px, style, family)`: `px <= 0` keeps the size; a `None`
    /// style or family keeps it; a style mentioning `italic` or `oblique`
    /// slants and one mentioning `bold` is bold (case-insensitive),
    /// otherwise upright and regular.
    pub fn apply_parts(&mut self, px: i64, style: Option<&str>, family: Option<&str>) {
        if px > 0 {
            self.size = px.min(festina_signatures::style::MAX_FONT_SIZE as i64) as f64;
        }
        if let Some(style) = style {
            let s = style.to_ascii_lowercase();
            self.slant = if s.contains("italic") || s.contains("oblique") {
                FontSlant::Italic
            } else {
                FontSlant::Normal
            };
            self.weight = if s.contains("bold") {
                FontWeight::Bold
            } else {
                FontWeight::Normal
            };
        }
        if let Some(family) = family.map(cairo_text).filter(|f| !f.is_empty()) {
            self.family = Rc::from(family);
        }
    }

    /// Select this font on `ctx`.
    pub fn select(&self, ctx: &Context) {
        ctx.select_font_face(&self.family, self.slant, self.weight);
        ctx.set_font_size(self.size);
    }
}

/// The drawing style (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// The fill (black by default).
    pub fill: Fill,
    /// The border colour, `None` for no border (the default).
    pub border: Option<u32>,
    /// The border's width in pixels (1 by default).
    pub line_width: f64,
    /// The opacity of fills, borders, text and images, 0–1 (1 by default).
    pub alpha: f64,
    /// The font.
    pub font: Font,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            fill: Fill::Flat(0),
            border: None,
            line_width: 1.0,
            alpha: 1.0,
            font: Font::default(),
        }
    }
}

impl Style {
    /// What a call paints with: the style, with the call's own fill and
    /// border colours when it passes them (`Some(None)` is `none`).
    pub fn ink(&self, fill: Option<Option<u32>>, border: Option<Option<u32>>) -> Ink<'_> {
        let fill = match fill {
            Some(Some(rgb)) => InkFill::Flat(rgb),
            Some(None) => InkFill::None,
            None => match &self.fill {
                Fill::None => InkFill::None,
                Fill::Flat(rgb) => InkFill::Flat(*rgb),
                Fill::Gradient(g) => InkFill::Gradient(g),
            },
        };
        let border = border
            .unwrap_or(self.border)
            .filter(|_| self.line_width > 0.0);
        Ink {
            fill,
            border,
            line_width: self.line_width,
            alpha: self.alpha,
        }
    }
}

/// The fill of one call.
#[derive(Clone, Copy, Debug)]
pub enum InkFill<'a> {
    /// Nothing.
    None,
    /// One colour.
    Flat(u32),
    /// A gradient.
    Gradient(&'a Gradient),
}

/// What one call paints with (see [`Style::ink`]).
#[derive(Clone, Copy, Debug)]
pub struct Ink<'a> {
    /// The fill.
    pub fill: InkFill<'a>,
    /// The border colour, when a border is drawn (a colour and a positive
    /// line width).
    pub border: Option<u32>,
    /// Line width.
    pub line_width: f64,
    /// Alpha.
    pub alpha: f64,
}

impl Ink<'_> {
    /// The colour a direct path may draw with: a flat fill at full alpha
    /// and no border.
    pub fn direct_rgb(&self) -> Option<u32> {
        match self.fill {
            InkFill::Flat(rgb) if self.alpha >= 1.0 && self.border.is_none() => Some(rgb),
            _ => None,
        }
    }

    /// Make the fill the source of `ctx`; `false` for no fill.
    pub fn set_fill(&self, ctx: &Context) -> bool {
        match self.fill {
            InkFill::None => false,
            InkFill::Flat(rgb) => {
                let (r, g, b) = channels(rgb);
                ctx.set_source_rgba(r, g, b, self.alpha);
                true
            }
            InkFill::Gradient(g) => {
                g.apply(ctx, self.alpha);
                true
            }
        }
    }

    /// Fill the path built on `ctx`, then stroke it with the border; the
    /// path is consumed either way.
    pub fn fill_and_stroke(&self, ctx: &Context) -> Result<(), cairo::Error> {
        let filled = self.set_fill(ctx);
        match (filled, self.border) {
            (false, None) => {
                ctx.new_path();
                return Ok(());
            }
            (true, None) => return ctx.fill(),
            (true, Some(_)) => ctx.fill_preserve()?,
            (false, Some(_)) => {}
        }
        if let Some(rgb) = self.border {
            let (r, g, b) = channels(rgb);
            ctx.set_source_rgba(r, g, b, self.alpha);
            ctx.set_line_width(self.line_width);
            ctx.stroke()?;
        }
        Ok(())
    }
}

/// `0xRRGGBB` as cairo's 0–1 channels.
pub fn channels(rgb: u32) -> (f64, f64, f64) {
    (
        ((rgb >> 16) & 0xff) as f64 / 255.0,
        ((rgb >> 8) & 0xff) as f64 / 255.0,
        (rgb & 0xff) as f64 / 255.0,
    )
}

/// `text` as cairo may take it: up to the first NUL (cairo's text calls
/// take C strings; a Festina text never holds a NUL, but a value parsed
/// from outside might).
pub fn cairo_text(text: &str) -> &str {
    text.split('\0').next().unwrap_or("")
}

/// A `font` value (§8.14): a resolved font literal.
#[derive(Clone, Debug, PartialEq)]
pub struct FontObj {
    /// The parts the literal named.
    pub spec: FontSpec,
}

impl Handle for FontObj {
    /// `font`. A font has no text form (§8.21, a compile error); inside
    /// JSON it renders `"<font>"`.
    fn type_name(&self) -> &'static str {
        "font"
    }

    /// Fonts are sendable (§20.4): the parts are copied.
    fn send_copy(&self) -> Option<Box<dyn SentHandle>> {
        Some(Box::new(self.clone()))
    }
}

impl SentHandle for FontObj {
    fn into_value(self: Box<Self>) -> Value {
        Value::handle(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use festina_signatures::style::parse_font;

    #[test]
    fn fonts_change_only_what_they_name() {
        let mut f = Font::default();
        f.apply(&parse_font("bold 20px serif").unwrap());
        assert_eq!(
            (f.size, f.weight, f.slant, &*f.family),
            (20.0, FontWeight::Bold, FontSlant::Normal, "serif")
        );
        f.apply(&parse_font("12px").unwrap());
        assert_eq!(
            (f.size, f.weight, &*f.family),
            (12.0, FontWeight::Bold, "serif")
        );
        f.apply(&parse_font("italic").unwrap());
        assert_eq!((f.slant, f.weight), (FontSlant::Italic, FontWeight::Bold));
        f.apply_parts(0, Some("Oblique"), None);
        assert_eq!(
            (f.size, f.slant, f.weight),
            (12.0, FontSlant::Italic, FontWeight::Normal)
        );
        f.apply_parts(30, None, Some("mono\0space"));
        assert_eq!((f.size, &*f.family), (30.0, "mono"));
        f.apply_parts(-4, Some(""), Some(""));
        assert_eq!(
            (f.size, f.slant, &*f.family),
            (30.0, FontSlant::Normal, "mono")
        );
    }

    #[test]
    fn ink_overrides() {
        let mut s = Style::default();
        let ink = s.ink(None, None);
        assert_eq!(ink.direct_rgb(), Some(0));
        assert_eq!(s.ink(Some(None), None).direct_rgb(), None);
        assert_eq!(s.ink(Some(Some(0xff)), None).direct_rgb(), Some(0xff));
        assert_eq!(s.ink(None, Some(Some(1))).border, Some(1));
        s.border = Some(5);
        assert_eq!(s.ink(None, None).direct_rgb(), None);
        assert_eq!(s.ink(None, Some(None)).direct_rgb(), Some(0));
        s.line_width = 0.0;
        assert_eq!(s.ink(None, None).border, None);
        s.alpha = 0.5;
        assert_eq!(s.ink(None, None).direct_rgb(), None);
    }
}

// §7.5.3 escapes inside templates; a $ or { not forming ${ is literal text
log(`back\`tick`)
log(`a\tb`)
log(`line1\nline2`)
log(`cost: $5 and {braces}`)
log(`100%`)
log(`quote ' and "`)

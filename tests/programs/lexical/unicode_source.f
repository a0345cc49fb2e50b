// §6.1 source is UTF-8: non-ASCII text in comments and string literals — ünïcödé ✓
text greeting = 'héllo wörld ✓'
log(greeting)
log('日本語')
/* 🎉 in a block comment */
log('😀')

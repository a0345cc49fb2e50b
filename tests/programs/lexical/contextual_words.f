// §7.4 `default` and `use` are contextual words: ordinary identifiers elsewhere
int default = 3
text use = 'used'
log(default * 2)
log(use)

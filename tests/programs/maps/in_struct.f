// §8.9.2 a map field auto-vivifies and is shared with aliases
struct Config {
    name:text
    opts:map[bool]
}
Config c = {'name': 'app'}
c.opts['debug'] = true
map[bool] o = c.opts
o['debug'] = false
log(c)

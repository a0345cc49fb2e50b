// §16.4 malformed JSON, a wrong shape or trailing data throws a
// descriptive text; a parse that fails leaves nothing behind
struct P {
    id:int
    name:text
    tags:arr[int]
}
void func attempt(src:text) {
    try {
        P p = src.toStruct(P)
        log(`ok: ${p}`)
    } catch (e:text) {
        log(`error: ${e}`)
    }
}
attempt('{"id": 1}')
attempt('{"id": 1')
attempt('{"id": 1} trailing')
attempt('{"id": 1}{"id": 2}')
attempt('[1, 2]')
attempt('"text"')
attempt('{"id": "one"}')
attempt('{"id": 1.5}')
attempt('{"id": true}')
attempt('{"name": 5}')
attempt('{"tags": [1, "x"]}')
attempt('{"tags": {"a": 1}}')
attempt('{"name": "bad \\x escape"}')
attempt('{"name": "\\ud800"}')
attempt('{"name": "\\u12"}')
attempt('{"id": 99999999999999999999}')
attempt('{"id": 9223372036854775808}')
attempt('')
attempt('   ')
attempt('{id: 1}')
attempt('{"id": 1,}')
attempt('[1 2]')
attempt('{"id": 01}')
attempt('nul')
attempt('{"name": "line\nbreak"}')
log('still running')

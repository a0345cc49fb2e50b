// §16.4 the direct parser (FESTINA_NO_DIRECT_JSON) and the general one
// give the same values; the [no-opt] run checks them against each other
struct Inner {
    k:int
    tags:arr[text]
}
struct R {
    id:int
    sensor:text
    value:float
    ok:bool
    code:ascii
    inner:Inner
    list:arr[Inner]
    counts:map[int]
    grid:arr[arr[float]]
}
void func show(src:text) {
    try {
        R r = src.toStruct(R)
        log(`${r}`)
    } catch (e:text) {
        log(`error: ${e}`)
    }
}
show('{"sensor": "load-7", "value": 7.5}')
show(' \t\r\n{ "ID" : 3 , "Sensor":"x" ,"VALUE":-1e-3 } \n')
show('{"id": 1, "id": 2, "sensor": "a", "sensor": "b"}')
show('{"value": -0}')
show('{"value": 0, "id": -0}')
show('{"value": 18446744073709551615}')
show('{"value": 1e308, "id": 2.0}')
show('{"value": 1e309}')
show('{"value": 5e-324, "ok": true}')
show('{"ok": false, "code": "abc"}')
show('{"code": "é"}')
show('{"sensor": "héllo ☃"}')
show('{"sensor": "tab\\tquote\\" ok"}')
show('{"unknown": {"a": [1, {"b": null}], "c": "d\\n"}, "id": 4}')
show('{"unknown": [true, false, null, -1.5e2, "s", [], {}], "id": 5}')
show('{"inner": {"k": 9, "tags": ["a", "b"]}, "list": [{"k": 1}, {"k": 2, "tags": []}]}')
show('{"counts": {"a": 1, "b": 2, "a": 3}, "grid": [[1, 2.5], [], [null]]}')
show('{"id": null, "sensor": null, "value": null, "ok": null, "inner": null, "list": null}')
show('{}')
show('{"id": 01}')
show('{"id": 1.}')
show('{"id": .5}')
show('{"id": 1e}')
show('{"id": -}')
show('{"id": 1,}')
show('{"id": 1} x')
show('{"id": tru}')
show('{"sensor": "raw\nnewline"}')
show('{"id": 9223372036854775808}')
show('{"id": -9223372036854775808}')
show('{"list": [{"k": "no"}]}')
show('[]')
arr[Inner] xs = ' [ {"k": 1, "tags": ["x"]} , {"K": 2} ] '.toArr(Inner)
log(xs)
arr[int] empty = '[]'.toArr(int)
log(empty)
arr[map[bool]] ms = '[{"t": true}, {}, {"f": false, "n": null}]'.toArr(map[bool])
log(ms)

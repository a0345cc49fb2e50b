struct P { x:int 5 y: }
match v {
    'a' { }
    42 { }
    default { }
}

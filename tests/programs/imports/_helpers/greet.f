// helper for imports/underscore_helper.f
text func greet(name:text) {
    return `Hello, ${name}!`
}

// §7.5.3 a substitution may itself contain a template literal
int n = 5
text name = 'Ana'
log(`[${`<${n}>`}]`)
log(`outer ${`middle ${`inner ${name}`}`} done`)
log(`${n > 3 ? `big ${n}` : `small ${n}`}`)

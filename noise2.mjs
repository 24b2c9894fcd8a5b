function f(n){let s=0;for(let i=0;i<n;i++){s=(s*31+i)|0;} return s;}
let z=0; z+=f(1e7); for(let k=0;k<6;k++){const t=process.hrtime.bigint(); z+=f(1e8); console.log(Number(process.hrtime.bigint()-t)/1e8);} console.log(z)

// SPDX-License-Identifier: MIT
/* tests/browser/frames.js: the script of lib-chromium.sh's frame page, which
 * loads each page twice, in a wide frame (1200 px) and a narrow one (700 px),
 * with check-page.js in it. Each frame posts its findings here; once both of a
 * page have, its findings go into <pre id="lmb-results">, each line prefixed
 * with the page's number and a tab: the "plot" lines of the wide frame, its
 * problems, and those of the narrow frame not found in the wide one as well
 * (compared without their boxes), marked "(at 700 px wide)"; then "end P". */
(function () {
    'use strict';
    var got = {};
    function unboxed(l) {
        return l.replace(/ \(-?\d+,-?\d+ \d+x\d+\)/g, '');
    }
    window.addEventListener('message', function (e) {
        var d = e.data, m;
        if (!d || typeof d.lmbCheck !== 'string' || !(m = /^lmb-check=(\d+)-(wide|narrow)$/.exec(d.lmbCheck)))
            return;
        var n = m[1], page = got[n] = got[n] || {};
        page[m[2]] = d.text.split('\n');
        if (!page.wide || !page.narrow)
            return;
        var out = [], seen = {}, np = 0, ended = 0;
        page.wide.forEach(function (l) {
            if (/^end /.test(l)) {
                ended++;
                return;
            }
            if (/^problem /.test(l)) {
                np++;
                seen[unboxed(l)] = true;
            }
            out.push(l);
        });
        page.narrow.forEach(function (l) {
            if (/^end /.test(l))
                ended++;
            else if (/^problem /.test(l) && !seen[unboxed(l)]) {
                np++;
                out.push(l + ' (at 700 px wide)');
            }
        });
        if (ended === 2)
            out.push('end ' + np);
        var pre = document.getElementById('lmb-results');
        pre.textContent += out.map(function (l) { return n + '\t' + l; }).join('\n') + '\n';
    });
})();

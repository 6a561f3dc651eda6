// SPDX-License-Identifier: MIT
/* tests/browser/check-page.js: the check run inside a page of `lmbench graph`
 * in a real browser (tests/browser/check-graph injects it as the first script
 * of the page's <head>). It records script errors from the start, and after
 * the page's own script ran (the load event, then a 500 ms timer: the page's
 * own layout must be done by then, and not wait for animation frames, which
 * headless --dump-dom does not run in the top frame) measures what the
 * browser rendered:
 *   - every plot: an element with data-plot="ID"; its series are the elements
 *     of class "series" inside it, each with data-series="N";
 *   - a plot is empty when it has no series or none draws anything (a path,
 *     circle, rect, line, polyline, polygon or ellipse with a rendered box);
 *     a series that draws nothing is reported too;
 *   - each series needs a visible legend entry with text in the same plot (the
 *     plot's closest section.plot, else the plot): an element of class
 *     "legend" whose data-series lists N (one id or several, space-separated);
 *   - no two text labels of a plot overlap by more than 1 px each way: every
 *     SVG <text> and every line of HTML text in the plot's section, measured
 *     with getBoundingClientRect / Range.getClientRects;
 *   - no SVG <text> cut off by the edge of its <svg> (by more than 1 px);
 *   - no script error and no console.error.
 * The findings, one a line, go into <pre id="lmb-check"> (for --dump-dom) and
 * to the parent window (the runner's frame page):
 *   plot ID series=N drawn=N points=N labels=N width=W height=H
 *   problem ID: <what>          (ID "page" for script errors)
 *   end P                       (P problems; missing when the check broke)
 * With the URL fragment #lmb-only=ID it shows only that plot instead (for a
 * screenshot) and checks nothing. */
(function () {
    'use strict';
    var errors = [];
    window.addEventListener('error', function (e) {
        errors.push('script error: ' + (e.message || 'unknown') +
                    (e.filename ? ' at line ' + e.lineno : ''));
    });
    var ce = console.error;
    console.error = function () {
        errors.push('console.error: ' + [].map.call(arguments, String).join(' '));
        return ce.apply(console, arguments);
    };

    var hash = decodeURIComponent(location.hash.replace(/^#/, ''));

    function clean(s) {
        s = String(s).replace(/\s+/g, ' ').trim();
        return s.length > 48 ? s.slice(0, 45) + '...' : s;
    }
    function fmt(r) {
        return '(' + Math.round(r.left) + ',' + Math.round(r.top) + ' ' + Math.round(r.width) +
               'x' + Math.round(r.height) + ')';
    }
    function visible(el) {
        for (var e = el; e && e.nodeType === 1; e = e.parentNode) {
            var cs = getComputedStyle(e);
            if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0')
                return false;
        }
        return true;
    }
    function scopeOf(plot) {
        return plot.closest('section.plot') || plot;
    }

    // The text boxes of a plot's section: SVG <text> elements whole, HTML text
    // line by line.
    function labels(scope) {
        var out = [];
        scope.querySelectorAll('text').forEach(function (t) {
            if (t.parentNode.closest && t.parentNode.closest('text'))
                return;
            var r = t.getBoundingClientRect();
            if (r.width > 0 && r.height > 0 && t.textContent.trim() !== '' && visible(t))
                out.push({ el: t, text: clean(t.textContent), r: r });
        });
        var walk = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT, null);
        for (var n = walk.nextNode(); n; n = walk.nextNode()) {
            var p = n.parentNode;
            if (n.nodeValue.trim() === '' || p.closest('svg') || p.closest('script,style,title'))
                continue;
            if (!visible(p))
                continue;
            var range = document.createRange();
            range.selectNodeContents(n);
            [].forEach.call(range.getClientRects(), function (r) {
                if (r.width > 0 && r.height > 0)
                    out.push({ el: p, text: clean(n.nodeValue), r: r });
            });
        }
        return out;
    }

    function overlaps(list) {
        var found = [];
        list.sort(function (a, b) { return a.r.left - b.r.left; });
        for (var i = 0; i < list.length; i++)
            for (var k = i + 1; k < list.length; k++) {
                var a = list[i].r, b = list[k].r;
                if (b.left >= a.right - 1)
                    break;
                if (list[i].el === list[k].el)
                    continue;
                var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                if (w > 1 && h > 1)
                    found.push('labels overlap: "' + list[i].text + '" ' + fmt(a) + ' and "' +
                               list[k].text + '" ' + fmt(b));
            }
        return found;
    }

    // SVG text that sticks out of its <svg>, which clips it.
    function clipped(list) {
        var found = [];
        list.forEach(function (l) {
            var svg = l.el.ownerSVGElement;
            if (!svg || l.el.tagName.toLowerCase() !== 'text')
                return;
            var a = l.r, b = svg.getBoundingClientRect();
            if (a.left < b.left - 1 || a.right > b.right + 1 || a.top < b.top - 1 ||
                a.bottom > b.bottom + 1)
                found.push('label cut off by the edge of its plot: "' + l.text + '" ' + fmt(a) +
                           ', the svg ' + fmt(b));
        });
        return found;
    }

    var SHAPES = 'path,circle,rect,line,polyline,polygon,ellipse';
    function draws(series) {
        var shapes = series.matches(SHAPES) ? [series] : series.querySelectorAll(SHAPES);
        for (var i = 0; i < shapes.length; i++) {
            var r = shapes[i].getBoundingClientRect();
            if ((r.width > 0 || r.height > 0) && visible(shapes[i]))
                return true;
        }
        return false;
    }

    function legendFor(scope, id) {
        var all = scope.querySelectorAll('.legend[data-series]');
        for (var i = 0; i < all.length; i++) {
            var ids = all[i].getAttribute('data-series').split(/\s+/);
            if (ids.indexOf(id) >= 0 && visible(all[i]) && all[i].textContent.trim() !== '') {
                var r = all[i].getBoundingClientRect();
                if (r.width > 0 && r.height > 0)
                    return true;
            }
        }
        return false;
    }

    function check() {
        var lines = [], problems = [];
        function problem(id, what) {
            problems.push('problem ' + id + ': ' + what);
        }
        var plots = document.querySelectorAll('[data-plot]');
        var scopes = [];
        plots.forEach(function (plot) {
            var id = plot.getAttribute('data-plot'), scope = scopeOf(plot);
            var series = plot.querySelectorAll('.series'), drawn = 0;
            series.forEach(function (s) {
                var sid = s.getAttribute('data-series');
                var name = clean(s.getAttribute('data-name') || sid || '?');
                if (draws(s))
                    drawn++;
                else
                    problem(id, 'series "' + name + '" draws nothing');
                if (sid === null || sid === '')
                    problem(id, 'series "' + name + '" has no data-series id');
                else if (!legendFor(scope, sid))
                    problem(id, 'series "' + name + '" (data-series=' + sid + ') has no legend entry');
            });
            if (series.length === 0)
                problem(id, 'empty plot: no series');
            else if (drawn === 0)
                problem(id, 'empty plot: no series draws anything');
            var box = scope.getBoundingClientRect(), nl = 0;
            if (scopes.indexOf(scope) < 0) {
                scopes.push(scope);
                var ls = labels(scope);
                nl = ls.length;
                overlaps(ls).forEach(function (o) { problem(id, o); });
                clipped(ls).forEach(function (o) { problem(id, o); });
            }
            lines.push('plot ' + id + ' series=' + series.length + ' drawn=' + drawn + ' points=' +
                       plot.querySelectorAll('.series circle').length + ' labels=' + nl +
                       ' width=' + Math.round(box.width) + ' height=' + Math.round(box.height));
        });
        if (plots.length === 0)
            problem('page', 'no plot (no element with data-plot)');
        errors.forEach(function (e) { problem('page', e); });
        return lines.concat(problems, ['end ' + problems.length]).join('\n');
    }

    // Only the plot named: everything else hidden, up to the body.
    function only(id) {
        var plot = null;
        document.querySelectorAll('[data-plot]').forEach(function (p) {
            if (plot === null && p.getAttribute('data-plot') === id)
                plot = p;
        });
        if (plot === null) {
            document.body.textContent = 'lmb-only: no plot ' + id;
            return;
        }
        for (var e = scopeOf(plot); e && e !== document.body; e = e.parentElement)
            [].forEach.call(e.parentElement.children, function (c) {
                if (c !== e && c.tagName !== 'SCRIPT' && c.tagName !== 'STYLE')
                    c.style.display = 'none';
            });
        window.scrollTo(0, 0);
    }

    window.addEventListener('load', function () {
        setTimeout(function () {
            if (hash.indexOf('lmb-only=') === 0) {
                only(hash.slice(9));
                return;
            }
            var text;
            try {
                text = check();
            } catch (e) {
                text = 'problem page: the check itself failed: ' + e;
            }
            var pre = document.createElement('pre');
            pre.id = 'lmb-check';
            pre.textContent = text;
            document.body.appendChild(pre);
            if (window.parent !== window)
                window.parent.postMessage({ lmbCheck: hash, text: text }, '*');
        }, 500);
    });
})();

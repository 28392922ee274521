/// The widget's static files, compiled in so that `serve` needs nothing beside the index:
/// `GET /` (a page with the widget, also a demo that the browser test drives with `?type=` and
/// `?keys=`) and `GET /widget.js` (the dependency-free script any page can include).
enum WidgetFiles {
  /// `GET /`.
  static let page = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>PlaceIndex autocomplete</title>
    <style>
      body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 40em; padding: 0 1em; color: #202124; }
      h1 { font-size: 1.3em; margin-bottom: .2em; }
      p.hint { color: #70757a; margin-top: 0; }
      label { display: block; font-weight: 600; margin: 1em 0 .3em; }
      #details { margin-top: 1.2em; }
      #details dl { display: grid; grid-template-columns: max-content 1fr; gap: .25em 1em; margin: 0; }
      #details dt { color: #70757a; }
      #details dd { margin: 0; }
      code { background: #f1f3f4; padding: 0 .25em; border-radius: 3px; }
    </style>
    </head>
    <body>
    <h1>PlaceIndex autocomplete</h1>
    <p class="hint">Offline place search over this server's index. Use <code>/widget.js</code> on any page;
    parameters here: <code>?origin=LAT,LNG</code>, <code>?bias=LAT,LNG,RADIUS</code>, <code>?key=API_KEY</code>.</p>
    <label for="where">Where to?</label>
    <input id="where" type="text" placeholder="Start typing a place or an address" spellcheck="false">
    <section id="details" aria-live="polite"></section>
    <script src="/widget.js"></script>
    <script>
    (function () {
      'use strict';
      var q = new URLSearchParams(location.search);
      function numbers(name) {
        var v = q.get(name);
        if (!v) return null;
        var n = v.split(',').map(Number);
        return n.every(isFinite) ? n : null;
      }
      var options = {detailsPanel: document.getElementById('details')};
      var origin = numbers('origin'), bias = numbers('bias');
      if (origin && origin.length === 2) options.origin = {latitude: origin[0], longitude: origin[1]};
      if (bias && bias.length === 3)
        options.locationBias = {circle: {center: {latitude: bias[0], longitude: bias[1]}, radius: bias[2]}};
      if (q.get('key')) options.apiKey = q.get('key');
      var input = document.getElementById('where');
      var widget = PlaceIndexAutocomplete.attach(input, options);

      /* A demo (and the browser test's driver): ?type=TEXT types TEXT one character at a time,
         ?keys=ArrowDown,Enter then presses those keys once the newest text's list is shown. When
         done, <body data-demo="done">. */
      var text = q.get('type');
      if (!text) return;
      var keys = (q.get('keys') || '').split(',').filter(Boolean);
      var chars = Array.from(text);
      var typed = '';
      input.focus();
      widget.element.addEventListener('placeindex:suggestions', function (e) {
        if (e.detail.input !== text) return;
        keys.forEach(function (k) {
          input.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}));
        });
        if (keys.indexOf('Enter') < 0) document.body.dataset.demo = 'done';
      });
      widget.element.addEventListener('placeindex:place', function () { document.body.dataset.demo = 'done'; });
      (function next() {
        if (!chars.length) return;
        typed += chars.shift();
        input.value = typed;
        input.dispatchEvent(new Event('input', {bubbles: true}));
        setTimeout(next, 60);
      })();
    })();
    </script>
    </body>
    </html>
    """#

  /// `GET /widget.js`.
  static let script = #"""
    /* PlaceIndex autocomplete widget: no dependencies. Include it from a placeidx server and attach
       it to a text box:
         <script src="http://127.0.0.1:8080/widget.js"></script>
         <input id="where">
         <script>PlaceIndexAutocomplete.attach(document.getElementById('where'), {
           origin: {latitude: 60.17, longitude: 24.94},            // optional: distances from here
           locationBias: {circle: {center: {latitude: 60.17, longitude: 24.94}, radius: 5000}},
           onPlaceSelected: function (place) { console.log(place); } // optional
         });</script>
       Requests go to the server the script came from (option `endpoint` to change it). */
    (function (global) {
      'use strict';
      var script = document.currentScript;
      var defaultEndpoint = script && script.src ? new URL(script.src, location.href).origin : '';
      var instances = 0;

      function newSessionToken() {
        if (global.crypto && global.crypto.randomUUID) return global.crypto.randomUUID();
        var s = '';
        for (var i = 0; i < 32; i++) s += Math.floor(Math.random() * 16).toString(16);
        return s;
      }

      function el(tag, className, text) {
        var e = document.createElement(tag);
        if (className) e.className = className;
        if (text !== undefined) e.textContent = text;
        return e;
      }

      /* The text with its matched ranges (Unicode scalar offsets) in <b>. */
      function highlighted(matched) {
        var frag = document.createDocumentFragment();
        if (!matched || !matched.text) return frag;
        var chars = Array.from(matched.text);
        var at = 0;
        (matched.matches || []).forEach(function (m) {
          var start = Math.max(at, m.startOffset || 0), end = Math.min(chars.length, m.endOffset);
          if (end <= start) return;
          if (start > at) frag.appendChild(document.createTextNode(chars.slice(at, start).join('')));
          frag.appendChild(el('b', null, chars.slice(start, end).join('')));
          at = end;
        });
        if (at < chars.length) frag.appendChild(document.createTextNode(chars.slice(at).join('')));
        return frag;
      }

      function distance(m) {
        return m < 1000 ? Math.round(m) + ' m' : (m / 1000).toFixed(m < 10000 ? 1 : 0) + ' km';
      }

      function label(type) {
        return type ? type.replace(/_/g, ' ') : '';
      }

      var css =
        '.pia{position:relative;font:15px/1.35 system-ui,sans-serif;max-width:36em}' +
        '.pia input{width:100%;box-sizing:border-box;font:inherit;padding:.55em .7em;border:1px solid #999;border-radius:6px}' +
        '.pia-list{list-style:none;margin:2px 0 0;padding:0;border:1px solid #ccc;border-radius:6px;background:#fff;box-shadow:0 2px 6px rgba(0,0,0,.15)}' +
        '.pia-list[hidden]{display:none}' +
        '.pia-item{display:flex;gap:.6em;align-items:baseline;padding:.45em .7em;cursor:pointer;border-bottom:1px solid #eee}' +
        '.pia-item[aria-selected=true]{background:#e8f0fe}' +
        '.pia-main{color:#202124}.pia-main b{font-weight:700}' +
        '.pia-secondary{color:#70757a;font-size:.88em;flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}' +
        '.pia-secondary b{font-weight:700}' +
        '.pia-distance{color:#70757a;font-size:.8em;white-space:nowrap}' +
        '.pia-type{color:#1a73e8;font-size:.75em;text-transform:uppercase;letter-spacing:.03em;white-space:nowrap}' +
        '.pia-attribution{padding:.3em .7em;font-size:.72em;color:#70757a;text-align:right}' +
        '.pia-attribution a{color:inherit}' +
        '.pia-empty{padding:.45em .7em;color:#70757a}';

      function attach(input, options) {
        options = options || {};
        var endpoint = options.endpoint || defaultEndpoint;
        var debounceMs = options.debounceMs === undefined ? 150 : options.debounceMs;
        var id = 'pia-' + (++instances);
        if (!document.getElementById('pia-style')) {
          var style = el('style');
          style.id = 'pia-style';
          style.textContent = css;
          document.head.appendChild(style);
        }
        var box = el('div', 'pia');
        input.parentNode.insertBefore(box, input);
        box.appendChild(input);
        var list = el('ul', 'pia-list');
        list.id = id + '-list';
        list.setAttribute('role', 'listbox');
        list.hidden = true;
        box.appendChild(list);
        var attribution = el('div', 'pia-attribution');
        attribution.innerHTML =
          'Data © <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap contributors</a>, ODbL';
        attribution.hidden = true;
        box.appendChild(attribution);
        var live = el('div');
        live.setAttribute('aria-live', 'polite');
        live.style.cssText = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)';
        box.appendChild(live);

        input.setAttribute('role', 'combobox');
        input.setAttribute('aria-autocomplete', 'list');
        input.setAttribute('aria-expanded', 'false');
        input.setAttribute('aria-controls', list.id);
        input.setAttribute('autocomplete', 'off');
        if (!input.getAttribute('aria-label') && !input.id) input.setAttribute('aria-label', 'Search places');

        var sessionToken = newSessionToken();
        var sequence = 0;   /* the newest request's number: older answers are dropped */
        var timer = null;
        var suggestions = [];
        var active = -1;

        function headers(json) {
          var h = {};
          if (json) h['Content-Type'] = 'application/json';
          if (options.apiKey) h['X-Goog-Api-Key'] = options.apiKey;
          return h;
        }

        function close() {
          list.hidden = true;
          attribution.hidden = true;
          input.setAttribute('aria-expanded', 'false');
          input.removeAttribute('aria-activedescendant');
          active = -1;
        }

        function setActive(i) {
          var items = list.querySelectorAll('.pia-item');
          if (!items.length) return;
          active = (i + items.length) % items.length;
          items.forEach(function (item, k) { item.setAttribute('aria-selected', k === active ? 'true' : 'false'); });
          input.setAttribute('aria-activedescendant', items[active].id);
          items[active].scrollIntoView({block: 'nearest'});
        }

        function render(text) {
          list.textContent = '';
          active = -1;
          input.removeAttribute('aria-activedescendant');
          if (!suggestions.length) {
            var empty = el('li', 'pia-empty', 'No places match “' + text + '”');
            empty.setAttribute('role', 'option');
            empty.setAttribute('aria-disabled', 'true');
            list.appendChild(empty);
          }
          suggestions.forEach(function (s, i) {
            var p = s.placePrediction;
            var item = el('li', 'pia-item');
            item.id = id + '-option-' + i;
            item.setAttribute('role', 'option');
            item.setAttribute('aria-selected', 'false');
            item.dataset.placeId = p.placeId;
            var main = el('span', 'pia-main');
            main.appendChild(highlighted(p.structuredFormat ? p.structuredFormat.mainText : p.text));
            var secondary = el('span', 'pia-secondary');
            if (p.structuredFormat && p.structuredFormat.secondaryText)
              secondary.appendChild(highlighted(p.structuredFormat.secondaryText));
            var type = el('span', 'pia-type', label(p.types && p.types[0]));
            item.appendChild(main);
            item.appendChild(secondary);
            if (typeof p.distanceMeters === 'number') item.appendChild(el('span', 'pia-distance', distance(p.distanceMeters)));
            item.appendChild(type);
            item.addEventListener('mousedown', function (e) { e.preventDefault(); select(i); });
            list.appendChild(item);
          });
          list.hidden = false;
          attribution.hidden = false;
          input.setAttribute('aria-expanded', 'true');
          live.textContent = suggestions.length + ' suggestions';
          box.dispatchEvent(new CustomEvent('placeindex:suggestions', {detail: {input: text, suggestions: suggestions}}));
        }

        function request(text) {
          var mine = ++sequence;
          var body = {input: text, sessionToken: sessionToken};
          if (options.origin) body.origin = options.origin;
          if (options.locationBias) body.locationBias = options.locationBias;
          if (options.locationRestriction) body.locationRestriction = options.locationRestriction;
          if (options.includedRegionCodes) body.includedRegionCodes = options.includedRegionCodes;
          if (options.includedPrimaryTypes) body.includedPrimaryTypes = options.includedPrimaryTypes;
          if (options.languageCode) body.languageCode = options.languageCode;
          if (options.maxResultCount) body.maxResultCount = options.maxResultCount;
          fetch(endpoint + '/v1/places:autocomplete', {method: 'POST', headers: headers(true), body: JSON.stringify(body)})
            .then(function (r) { return r.json(); })
            .then(function (json) {
              if (mine !== sequence) return;  /* an older text's answer */
              if (json.error) { suggestions = []; close(); live.textContent = json.error.message; return; }
              suggestions = json.suggestions || [];
              render(text);
            })
            .catch(function () { if (mine === sequence) close(); });
        }

        function select(i) {
          var s = suggestions[i];
          if (!s) return;
          var p = s.placePrediction;
          input.value = p.text ? p.text.text : p.structuredFormat.mainText.text;
          close();
          sequence++;  /* answers still on their way are stale now */
          var token = sessionToken;
          sessionToken = newSessionToken();  /* the details call ends the session */
          var url = endpoint + '/v1/places/' + encodeURIComponent(p.placeId) + '?sessionToken=' + encodeURIComponent(token);
          if (options.fields) url += '&fields=' + encodeURIComponent(options.fields);
          if (options.languageCode) url += '&languageCode=' + encodeURIComponent(options.languageCode);
          fetch(url, {headers: headers(false)})
            .then(function (r) { return r.json(); })
            .then(function (place) {
              if (options.detailsPanel) fillDetails(options.detailsPanel, place);
              if (options.onPlaceSelected) options.onPlaceSelected(place);
              box.dispatchEvent(new CustomEvent('placeindex:place', {detail: place}));
            });
        }

        input.addEventListener('input', function () {
          clearTimeout(timer);
          var text = input.value;
          if (!text.trim()) { sequence++; suggestions = []; close(); return; }
          timer = setTimeout(function () { request(text); }, debounceMs);
        });
        input.addEventListener('keydown', function (e) {
          if (e.key === 'ArrowDown') {
            if (list.hidden && suggestions.length) { list.hidden = false; attribution.hidden = false; input.setAttribute('aria-expanded', 'true'); }
            setActive(active + 1); e.preventDefault();
          } else if (e.key === 'ArrowUp') {
            setActive(active < 0 ? -1 : active - 1); e.preventDefault();
          } else if (e.key === 'Enter') {
            if (!list.hidden && active >= 0) { select(active); e.preventDefault(); }
          } else if (e.key === 'Escape') {
            close();
          }
        });
        input.addEventListener('blur', function () { setTimeout(close, 150); });
        return {
          element: box,
          get sessionToken() { return sessionToken; },
          clear: function () { input.value = ''; suggestions = []; close(); }
        };
      }

      /* Writes a place's details into `panel` as a definition list. */
      function fillDetails(panel, place) {
        panel.textContent = '';
        if (place.error) { panel.appendChild(el('p', 'pia-error', place.error.message)); return; }
        var dl = el('dl', 'pia-details');
        function row(name, value) {
          if (value === undefined || value === null || value === '') return;
          dl.appendChild(el('dt', null, name));
          var dd = el('dd', null, String(value));
          dd.dataset.field = name;
          dl.appendChild(dd);
        }
        row('Name', place.displayName && place.displayName.text);
        row('Address', place.formattedAddress);
        if (place.location) row('Location', place.location.latitude.toFixed(6) + ', ' + place.location.longitude.toFixed(6));
        row('Types', (place.types || []).join(', '));
        if (place.plusCode) row('Plus code', place.plusCode.compoundCode || place.plusCode.globalCode);
        row('Place ID', place.id);
        panel.appendChild(dl);
        panel.dataset.placeId = place.id || '';
      }

      global.PlaceIndexAutocomplete = {attach: attach, fillDetails: fillDetails};
    })(window);
    """#
}

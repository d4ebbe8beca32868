// What one rendered page shows: code blocks and tables wider than the box
// that holds them, images missing or drawn smaller than they are, and the
// links and ids the cross-page check (links.py) needs.  Evaluated by
// check.py after the load event; the value is a plain JSON object.
(async () => {
  // Lazy images load only when scrolled to: ask for all of them now, and
  // let every one finish (decode() rejects for an image that cannot load).
  const imgs = [...document.images];
  await Promise.all(imgs.map((img) => {
    img.loading = "eager";
    return img.decode().catch(() => null);
  }));
  await document.fonts.ready;

  // the longest line of a block: what sticks out
  const snippet = (el) => (el.textContent || "").split("\n")
    .reduce((a, b) => (b.length > a.length ? b : a), "").trim().slice(0, 90);
  const visible = (el) => el.getClientRects().length > 0;

  // The element scrolls sideways itself (alabaster's and furo's pre), or
  // the nearest ancestor that clips or scrolls (a theme's table wrapper)
  // is narrower than its content, or the page as a whole scrolls sideways.
  function overflow(el) {
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      return [el.scrollWidth, el.clientWidth];
    }
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") {
        return a.scrollWidth > a.clientWidth + 1 ? [a.scrollWidth, a.clientWidth] : null;
      }
    }
    const right = el.getBoundingClientRect().right;
    const page = document.documentElement.clientWidth;
    return right > page + 1 ? [Math.ceil(right), page] : null;
  }

  const findings = [];
  const blocks = { pre: 0, table: 0 };
  for (const kind of ["pre", "table"]) {
    for (const el of document.querySelectorAll(kind)) {
      if (!visible(el)) continue;
      blocks[kind] += 1;
      const o = overflow(el);
      if (o) {
        findings.push({ kind: `${kind} overflow`,
                        detail: `${o[0]} px of content in ${o[1]} px: ${snippet(el)}` });
      }
    }
  }
  for (const img of imgs) {
    const src = img.getAttribute("src") || "";
    if (!img.complete || img.naturalWidth === 0) {
      findings.push({ kind: "image missing", detail: src });
    } else if (visible(img)) {
      const shown = img.getBoundingClientRect().width;
      if (shown + 0.5 < img.naturalWidth) {
        findings.push({ kind: "image scaled down",
                        detail: `${src}: shown ${Math.round(shown)} px of ${img.naturalWidth} px` });
      }
    }
  }
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) {
    findings.push({ kind: "page overflow",
                    detail: `${doc.scrollWidth} px of content in a ${doc.clientWidth} px window` });
  }

  // Resolved URLs of every link and of the files the page loads; ids and
  // old-style <a name> targets for the #anchor check.
  const links = [...document.querySelectorAll("a[href]")].map((a) => a.href);
  const loads = [...document.querySelectorAll("link[href], script[src], img[src]")]
    .map((el) => el.href || el.src);
  const ids = [...document.querySelectorAll("[id]")].map((el) => el.id)
    .concat([...document.querySelectorAll("a[name]")].map((a) => a.name));
  return { blocks, images: imgs.length, findings, links: [...new Set(links)],
           loads: [...new Set(loads)], ids };
})()

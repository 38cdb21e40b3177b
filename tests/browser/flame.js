// SPDX-License-Identifier: GPL-2.0
//
// flame.js OUTDIR SVG FRAME SEARCH [SVG FRAME SEARCH]...: opens each flame graph
// of ppbench plot --flame in Debian's chromium (headless, a fresh profile, driven
// by playwright-core) and does what a reader does: looks at it, clicks FRAME (a
// frame's function name), presses Ctrl-F and answers the prompt with SEARCH, then
// clicks "Reset zoom". After each step it saves a screenshot, OUTDIR/K-STEP.png
// (K the graph's number from 0, STEP 0 loaded, 1 zoomed, 2 searched, 3 reset),
// and prints one JSON line per graph: per step every frame's name, place, width,
// fill and whether it shows, and the search's "Matched" line. The test judges it.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync'];

function frames(page) {
	return page.evaluate(() => Array.from(document.getElementsByClassName('f'), (g) => {
		const r = g.getElementsByTagName('rect')[0];
		return { n: g.getAttribute('data-n'), x: +r.getAttribute('x'), y: +r.getAttribute('y'),
			w: +r.getAttribute('width'), fill: r.getAttribute('fill'),
			shown: getComputedStyle(g).display !== 'none',
			label: g.getElementsByTagName('text')[0].textContent };
	}));
}

async function graph(page, cdp, out, k, svg, name, search) {
	const steps = [];
	// chromium's own capture: playwright's page.screenshot() stalls on an SVG document
	const shot = async (step) => {
		const png = await cdp.send('Page.captureScreenshot', { format: 'png' });
		fs.writeFileSync(path.join(out, `${k}-${step}.png`), Buffer.from(png.data, 'base64'));
		steps.push(await frames(page));
	};

	await page.goto('file://' + path.resolve(svg));
	await page.setViewportSize(await page.evaluate(() => ({
		width: +document.documentElement.getAttribute('width'),
		height: +document.documentElement.getAttribute('height') })));
	await shot(0);
	await page.click(`g.f[data-n="${name}"] rect`);
	await shot(1);
	page.once('dialog', (d) => d.accept(search));
	await page.keyboard.press('Control+f');
	await page.waitForFunction(() => document.getElementById('matched').textContent.trim());
	await shot(2);
	const matched = await page.evaluate(() => document.getElementById('matched').textContent);
	await page.click('#reset');
	await shot(3);
	return { svg, steps, matched };
}

async function main() {
	const [out, ...rest] = process.argv.slice(2);
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ppb-chromium-'));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		// (the default scale, 1: a deviceScaleFactor stalls its screenshots)
		headless: true, args: ARGS, viewport: { width: 1200, height: 400 }, timeout: 20000,
	});

	try {
		const page = ctx.pages()[0] || (await ctx.newPage());
		const cdp = await ctx.newCDPSession(page);

		page.setDefaultTimeout(10000);
		for (let k = 0; 3 * k + 2 < rest.length; k++) {
			const g = await graph(page, cdp, out, k, ...rest.slice(3 * k, 3 * k + 3));

			console.log(JSON.stringify(g));
		}
	} finally {
		await ctx.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

main().catch((e) => {
	console.error(`flame.js: ${e.message.split('\n')[0]}`);
	process.exit(1);
});

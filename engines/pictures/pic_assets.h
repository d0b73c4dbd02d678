/* pic_assets.h - the pictures' own scripts and style sheets, built in from
 * the .js and .css files of engines/pictures/ (scripts/tools/gen-assets.py), each with
 * the base64 SHA-256 its page's Content-Security-Policy allows. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PIC_ASSETS_H
#define PIC_ASSETS_H

extern const char pic_asset_flame_js[], pic_asset_flame_js_sha256[];
extern const char pic_asset_flame_css[], pic_asset_flame_css_sha256[];
extern const char pic_asset_timechart_js[], pic_asset_timechart_js_sha256[];
extern const char pic_asset_timechart_css[], pic_asset_timechart_css_sha256[];

#endif

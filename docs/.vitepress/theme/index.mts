// The default VitePress theme plus the styles of the benchmark charts and wrapping code blocks.
import DefaultTheme from "vitepress/theme";
import "./bench-charts.css";
import "./code-wrap.css";

export default DefaultTheme;

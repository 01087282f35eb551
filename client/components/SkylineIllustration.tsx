/**
 * The sign-in page's decorative picture: houses before a city
 * skyline, drawn inline so the page loads nothing from elsewhere. Purely decorative, so hidden
 * from assistive technology.
 */
export function SkylineIllustration() {
  return (
    <svg
      viewBox="0 0 600 720"
      width="100%"
      height="100%"
      preserveAspectRatio="xMidYMid slice"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <linearGradient id="skyline-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#3b5bdb" />
          <stop offset="0.6" stopColor="#748ffc" />
          <stop offset="1" stopColor="#dbe4ff" />
        </linearGradient>
      </defs>
      <rect width="600" height="720" fill="url(#skyline-sky)" />
      <circle cx="470" cy="150" r="56" fill="#ffe8a3" opacity="0.9" />
      {/* Far towers */}
      <g fill="#5c7cfa" opacity="0.55">
        <rect x="20" y="300" width="70" height="300" />
        <rect x="100" y="240" width="55" height="360" />
        <rect x="165" y="330" width="80" height="270" />
        <rect x="255" y="200" width="60" height="400" />
        <rect x="325" y="280" width="90" height="320" />
        <rect x="425" y="230" width="65" height="370" />
        <rect x="500" y="320" width="85" height="280" />
      </g>
      {/* Near towers with lit windows */}
      <g fill="#364fc7">
        <rect x="60" y="380" width="90" height="240" />
        <rect x="210" y="340" width="70" height="280" />
        <rect x="390" y="360" width="100" height="260" />
      </g>
      <g fill="#ffe8a3" opacity="0.85">
        <rect x="75" y="400" width="14" height="18" />
        <rect x="105" y="400" width="14" height="18" />
        <rect x="75" y="440" width="14" height="18" />
        <rect x="120" y="470" width="14" height="18" />
        <rect x="225" y="360" width="12" height="16" />
        <rect x="253" y="395" width="12" height="16" />
        <rect x="225" y="430" width="12" height="16" />
        <rect x="410" y="385" width="16" height="18" />
        <rect x="450" y="385" width="16" height="18" />
        <rect x="430" y="425" width="16" height="18" />
      </g>
      {/* Ground */}
      <rect y="600" width="600" height="120" fill="#2f9e44" />
      <rect y="640" width="600" height="80" fill="#2b8a3e" />
      {/* Houses */}
      <g>
        <rect x="50" y="540" width="130" height="100" fill="#fff4e6" />
        <path d="M35 550 115 480l80 70Z" fill="#c92a2a" />
        <rect x="100" y="590" width="30" height="50" fill="#862e9c" />
        <rect x="62" y="565" width="26" height="24" fill="#74c0fc" />
        <rect x="145" y="565" width="26" height="24" fill="#74c0fc" />
      </g>
      <g>
        <rect x="230" y="520" width="160" height="120" fill="#f8f9fa" />
        <path d="M215 530 310 450l95 80Z" fill="#495057" />
        <rect x="292" y="585" width="34" height="55" fill="#e8590c" />
        <rect x="245" y="550" width="32" height="28" fill="#74c0fc" />
        <rect x="343" y="550" width="32" height="28" fill="#74c0fc" />
        <rect x="295" y="490" width="28" height="24" fill="#74c0fc" />
      </g>
      <g>
        <rect x="430" y="550" width="120" height="90" fill="#fff9db" />
        <path d="M418 558 490 495l72 63Z" fill="#1864ab" />
        <rect x="476" y="595" width="28" height="45" fill="#5f3dc4" />
        <rect x="442" y="572" width="24" height="22" fill="#74c0fc" />
        <rect x="514" y="572" width="24" height="22" fill="#74c0fc" />
      </g>
      {/* Trees */}
      <g>
        <rect x="197" y="590" width="8" height="50" fill="#5c3d2e" />
        <circle cx="201" cy="580" r="20" fill="#37b24d" />
        <rect x="403" y="600" width="8" height="40" fill="#5c3d2e" />
        <circle cx="407" cy="590" r="17" fill="#40c057" />
        <rect x="567" y="598" width="8" height="42" fill="#5c3d2e" />
        <circle cx="571" cy="588" r="18" fill="#37b24d" />
      </g>
      <path d="M0 680 Q300 650 600 690 V720 H0Z" fill="#868e96" opacity="0.5" />
    </svg>
  );
}

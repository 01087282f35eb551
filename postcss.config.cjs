// Lets our own CSS modules use Mantine's rem()/light-dark() helpers and mixins; Mantine's
// prebuilt styles.css does not need it.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
